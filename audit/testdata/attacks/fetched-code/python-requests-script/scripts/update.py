import requests

src = requests.get('https://example.org/update.py', timeout=5).text
exec(compile(src, 'update', 'exec'))
