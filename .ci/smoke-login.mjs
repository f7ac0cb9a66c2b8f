// Start smoke of .ci/run: with the servers of `npm start` running, logs in through the API the way
// the browser does from the web origin (CORS preflight, XSRF cookie, login), and checks that the web
// page points at the same API. Usage: node .ci/smoke-login.mjs <web origin> <api origin>
const [webOrigin, apiOrigin] = process.argv.slice(2);
if (!webOrigin || !apiOrigin) throw new Error('usage: node .ci/smoke-login.mjs <web origin> <api origin>');
const fail = (message) => {
  console.error(`smoke-login: ${message}`);
  process.exit(1);
};

const page = await (await fetch(`${webOrigin}/`)).text();
if (!page.includes(`content="${apiOrigin}"`)) fail(`the web page does not point at ${apiOrigin}`);

const preflight = await fetch(`${apiOrigin}/api/auth/login`, {
  method: 'OPTIONS',
  headers: {
    origin: webOrigin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type,x-xsrf-token',
  },
});
if (preflight.headers.get('access-control-allow-origin') !== webOrigin)
  fail(`CORS preflight from ${webOrigin} refused (${preflight.status})`);

const csrf = await fetch(`${apiOrigin}/sanctum/csrf-cookie`, {
  method: 'HEAD',
  headers: { origin: webOrigin },
});
const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length);
if (!xsrf) fail(`no XSRF-TOKEN cookie (${csrf.status})`);

const login = await fetch(`${apiOrigin}/api/auth/login`, {
  method: 'POST',
  headers: {
    origin: webOrigin,
    'sec-fetch-site': 'same-site',
    'content-type': 'application/json',
    cookie: cookies.join('; '),
    'x-xsrf-token': decodeURIComponent(xsrf),
  },
  body: JSON.stringify({ email: 'insegnante@demo.test', password: 'Portale.Demo.2026' }),
});
const body = await login.text();
if (login.status !== 200) fail(`login answered ${login.status}: ${body.slice(0, 300)}`);
if (login.headers.get('access-control-allow-origin') !== webOrigin)
  fail('login answer not readable by the web origin (CORS)');
console.log(`smoke-login: login from ${webOrigin} through ${apiOrigin} ok`);
