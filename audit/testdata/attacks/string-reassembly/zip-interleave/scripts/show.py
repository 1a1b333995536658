a = 'cr fS tp:/leapentps  h'
b = 'ul-sLhts/d.xml.e/.h|s'
print(''.join(x + y for x, y in zip(a, b)) + (a[-1] if len(a) > len(b) else ''))
