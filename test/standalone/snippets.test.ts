/**
 * The PHP, Python and Ruby snippets of docs/standalone.md (examples/standalone/payin.*), run by their interpreters: each
 * accepts a webhook the proxy signed and refuses an altered one, and each signs an order token the proxy
 * accepts. A missing interpreter fails with the command that installs it (npm test installs php-cli and ruby
 * as root on Debian).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { chargeablePrice } from '../../src/shared/money.js';
import { type OrderTokenClaims, verifyOrderToken } from '../../src/standalone/order-token.js';

const SECRET = `whsec_${Buffer.from('snippets share this secret').toString('base64')}`;
const TOKEN_SECRET = 'order-token-key';
const LANGUAGES = [
  ['PHP', 'php', 'examples/standalone/payin.php', 'apt-get install php-cli'],
  ['Python', 'python3', 'examples/standalone/payin.py', 'apt-get install python3'],
  ['Ruby', 'ruby', 'examples/standalone/payin.rb', 'apt-get install ruby'],
] as const;

/** Each language's call of sign_order_token with the types its frameworks hold, and the amount the token must carry. */
const CALLS: Record<string, [string[], string][]> = {
  php: [
    [['-r', `require 'examples/standalone/payin.php'; echo sign_order_token(getenv('ORDER_TOKEN_SECRET'), 1001, 499.5, 'INR');`], '499.50'],
  ],
  python3: [
    ...[
      ['Decimal("499.00")', '499.00'],
      ['499.5', '499.50'],
      ['Decimal("1499.90")', '1499.90'],
    ].map(([total, amount]): [string[], string] => [
      [
        '-c',
        `import os, sys; sys.path.insert(0, "examples/standalone"); from decimal import Decimal; from payin import sign_order_token; print(sign_order_token(os.environ["ORDER_TOKEN_SECRET"], 1001, ${total}, "INR"))`,
      ],
      amount!,
    ]),
  ],
  ruby: [
    ...[
      ['BigDecimal("499.00")', '499.00'],
      ['499.5', '499.50'],
      ['BigDecimal("1499.90")', '1499.90'],
    ].map(([total, amount]): [string[], string] => [
      [
        '-r',
        'bigdecimal',
        '-r',
        './examples/standalone/payin.rb',
        '-e',
        `puts sign_order_token(ENV.fetch("ORDER_TOKEN_SECRET"), 1001, ${total}, "INR")`,
      ],
      amount!,
    ]),
  ],
};

/**
 * Each language's call of verify_webhook with the headers in the shapes its servers and frameworks hand them over
 * (the values come from WEBHOOK_ID, WEBHOOK_TIMESTAMP and WEBHOOK_SIGNATURE, the body from stdin).
 */
const SHAPES: Record<string, [string, string[]][]> = {
  php: [
    ["getallheaders() under PHP-FPM or CGI, as nginx runs PHP: 'Webhook-Id'", ['Webhook-Id', 'Webhook-Timestamp', 'Webhook-Signature']],
    ["$_SERVER: 'HTTP_WEBHOOK_ID'", ['HTTP_WEBHOOK_ID', 'HTTP_WEBHOOK_TIMESTAMP', 'HTTP_WEBHOOK_SIGNATURE']],
    ["Symfony's and Laravel's $request->headers->all(): lists of values", ['webhook-id[]', 'webhook-timestamp[]', 'webhook-signature[]']],
  ],
  python3: [
    ["dict(request.headers) in Django or Flask: 'Webhook-Id'", ['Webhook-Id', 'Webhook-Timestamp', 'Webhook-Signature']],
    ["Django's request.META: 'HTTP_WEBHOOK_ID'", ['HTTP_WEBHOOK_ID', 'HTTP_WEBHOOK_TIMESTAMP', 'HTTP_WEBHOOK_SIGNATURE']],
  ],
  ruby: [
    ["the Rack env (Sinatra's request.env): 'HTTP_WEBHOOK_ID'", ['HTTP_WEBHOOK_ID', 'HTTP_WEBHOOK_TIMESTAMP', 'HTTP_WEBHOOK_SIGNATURE']],
    ["a Hash of the names as sent: 'Webhook-Id'", ['Webhook-Id', 'Webhook-Timestamp', 'Webhook-Signature']],
  ],
};

/** The program that builds the headers under `names` (a name ending in [] holds a list) and verifies stdin with them. */
function verifyProgram(binary: string, names: string[]): string[] {
  const from = ['WEBHOOK_ID', 'WEBHOOK_TIMESTAMP', 'WEBHOOK_SIGNATURE'];
  if (binary === 'php') {
    const entries = names.map((name, i) =>
      name.endsWith('[]') ? `'${name.slice(0, -2)}' => [getenv('${from[i]}')]` : `'${name}' => getenv('${from[i]}')`,
    );
    return [
      '-r',
      `require 'examples/standalone/payin.php'; echo verify_webhook(getenv('WEBHOOK_SECRET'), [${entries.join(', ')}], file_get_contents('php://stdin')) ? 'ok' : 'refused';`,
    ];
  }
  if (binary === 'python3') {
    const entries = names.map((name, i) => `"${name}": os.environ["${from[i]}"]`);
    return [
      '-c',
      `import os, sys; sys.path.insert(0, "examples/standalone"); from payin import verify_webhook; print("ok" if verify_webhook(os.environ["WEBHOOK_SECRET"], {${entries.join(', ')}}, sys.stdin.buffer.read()) else "refused")`,
    ];
  }
  const entries = names.map((name, i) => `'${name}' => ENV.fetch('${from[i]}')`);
  return [
    '-r',
    './examples/standalone/payin.rb',
    '-e',
    `puts(verify_webhook(ENV.fetch('WEBHOOK_SECRET'), { ${entries.join(', ')} }, $stdin.binmode.read) ? 'ok' : 'refused')`,
  ];
}

function run(binary: string, install: string, args: string[], env: Record<string, string>, input = '') {
  const result = spawnSync(binary, args, { env: { ...process.env, ...env }, input, encoding: 'utf8', timeout: 20_000 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${binary} is missing: ${install}`);
  expect(result.stderr, `${binary} ${args.join(' ')}`).toBe('');
  return result.stdout.trim();
}

/**
 * The webhook-* headers the proxy sends for `body` as message `id`, signed now with each of `secrets`, and the
 * snippet's own secret, in the environment names the snippets' command lines read.
 */
function signedWebhook(id: string, body: string, secrets = [SECRET]): Record<string, string> {
  const at = new Date();
  return {
    WEBHOOK_ID: id,
    WEBHOOK_TIMESTAMP: String(Math.floor(at.getTime() / 1000)),
    WEBHOOK_SIGNATURE: secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
    WEBHOOK_SECRET: SECRET,
  };
}

describe.each(LANGUAGES)('the %s snippet', (_, binary, file, install) => {
  it('accepts a webhook the proxy signed and refuses an altered one', () => {
    const body = JSON.stringify({ type: 'payment.updated', data: { orderId: 'A-1', outcome: 'paid', amount: '499.00' } });
    const headers = signedWebhook('msg_p1_finished', body);
    expect(run(binary, install, [file, 'verify'], headers, body)).toBe('ok');
    expect(run(binary, install, [file, 'verify'], headers, body.replace('499.00', '1.00'))).toBe('refused');
    expect(
      run(binary, install, [file, 'verify'], { ...headers, WEBHOOK_TIMESTAMP: String(Number(headers.WEBHOOK_TIMESTAMP) - 3_600) }, body),
    ).toBe('refused');
  });

  it.each(SHAPES[binary]!)('takes the headers as %s', (_shape, names) => {
    // The page's helper read headers['webhook-id'] alone: PHP-FPM's getallheaders() names it Webhook-Id, so a shop that
    // worked under php -S or Apache's mod_php turned every webhook away once deployed behind nginx.
    const body = JSON.stringify({ type: 'payment.updated', data: { orderId: 'A-1', outcome: 'paid', amount: '499.00' } });
    const headers = signedWebhook('msg_p5_finished', body);
    expect(run(binary, install, verifyProgram(binary, names), headers, body)).toBe('ok');
    expect(run(binary, install, verifyProgram(binary, names), headers, body.replace('499.00', '1.00'))).toBe('refused');
  });

  it.each([
    ['a timestamp that is not a number', { WEBHOOK_TIMESTAMP: 'soon' }],
    ['a timestamp in exponent notation', { WEBHOOK_TIMESTAMP: '1e9' }],
    ['a signature of letters outside ASCII', { WEBHOOK_SIGNATURE: `v1,${'é'.repeat(44)}` }],
  ])('refuses, rather than throws on, a call with %s: anyone can send one to the webhook endpoint', (_what, change) => {
    // Python's int() and hmac.compare_digest raised (ValueError, TypeError): the shop answered 500 with a traceback in
    // its log for what is only a request that is not from the proxy.
    const body = JSON.stringify({ type: 'payment.updated', data: { orderId: 'A-1', outcome: 'paid', amount: '499.00' } });
    expect(run(binary, install, [file, 'verify'], { ...signedWebhook('msg_p1_finished', body), ...change }, body)).toBe('refused');
  });

  it('accepts a webhook signed during a rotation, with the old secret and the new one, whichever it holds', () => {
    const body = JSON.stringify({ type: 'payment.updated', data: { orderId: 'A-1', outcome: 'paid' } });
    const other = `whsec_${Buffer.from('the secret before the rotation').toString('base64')}`;
    // What the proxy sends with PAYIN_WEBHOOK_SECRET="<other> <SECRET>": one signature per secret.
    const headers = signedWebhook('msg_p2_finished', body, [other, SECRET]);
    expect(run(binary, install, [file, 'verify'], headers, body)).toBe('ok');
    expect(run(binary, install, [file, 'verify'], { ...headers, WEBHOOK_SECRET: other }, body)).toBe('ok');
  });

  it('signs an order token the proxy accepts, for that order only', async () => {
    const token = run(binary, install, [file, 'sign', 'A-7', '499.00', 'INR'], { ORDER_TOKEN_SECRET: TOKEN_SECRET });
    const checked = await verifyOrderToken(TOKEN_SECRET, token, 'A-7', Date.now());
    expect(checked).toEqual({ ok: true, claims: expect.objectContaining({ orderId: 'A-7', amount: '499.00', currency: 'INR' }) });
    expect((await verifyOrderToken(TOKEN_SECRET, token, 'A-8', Date.now())).ok).toBe(false);
  });

  it('signs an order token for the order id and total as the shop holds them: an integer id, a decimal or float total', async () => {
    // Django's order.pk and Rails' order.id are integers, a DecimalField or a decimal column's total a Decimal or a
    // BigDecimal: the token named order 1001 (a number), never the element's order-id "1001", and refused its
    // amount (Python's Decimal could not even be written; Ruby's BigDecimal was written "0.499e3").
    for (const [call, amount] of CALLS[binary]) {
      const token = run(binary, install, [...call], { ORDER_TOKEN_SECRET: TOKEN_SECRET });
      const checked = await verifyOrderToken(TOKEN_SECRET, token, '1001', Date.now());
      expect(checked, call.at(-1)).toEqual({ ok: true, claims: expect.objectContaining({ orderId: '1001', currency: 'INR' }) });
      expect(chargeablePrice((checked as { claims: OrderTokenClaims }).claims)?.amount, call.at(-1)).toBe(amount);
    }
  });

  it('is shown in docs/standalone.md as it is', () => {
    const readme = readFileSync('docs/standalone.md', 'utf8');
    const code = readFileSync(file, 'utf8');
    const functions = code.slice(0, code.search(/\n(if __name__|if \(PHP_SAPI|if __FILE__)/));
    expect(readme).toContain(functions.trim());
  });
});

describe('the PHP snippet on PHP 7.4, the oldest WooCommerce runs on', () => {
  // PHP 8's string functions are left out here as PHP 7.4 has none of them: verify_webhook called str_starts_with,
  // so a WooCommerce shop on 7.4 answered every webhook with a fatal error, and the proxy retried it for ever.
  const php7 = ['-d', 'disable_functions=str_starts_with,str_ends_with,str_contains'];

  it('accepts a webhook the proxy signed and signs an order token, with none of PHP 8 functions', async () => {
    const body = JSON.stringify({ type: 'payment.updated', data: { orderId: 'A-1', outcome: 'paid', amount: '499.00' } });
    const headers = signedWebhook('msg_p3_finished', body);
    expect(run('php', 'apt-get install php-cli', [...php7, 'examples/standalone/payin.php', 'verify'], headers, body)).toBe('ok');
    const token = run('php', 'apt-get install php-cli', [...php7, 'examples/standalone/payin.php', 'sign', 'A-7', '499.00', 'INR'], {
      ORDER_TOKEN_SECRET: TOKEN_SECRET,
    });
    expect((await verifyOrderToken(TOKEN_SECRET, token, 'A-7', Date.now())).ok).toBe(true);
  });
});

describe('the Ruby snippet on Ruby 3.4 and later, where base64 is no default gem', () => {
  // Under Bundler there, `require 'base64'` fails unless the app's Gemfile lists it: a Roda, Hanami or plain Rack app
  // that pasted the helper stopped at boot with "cannot load such file -- base64". Here a require of it fails so.
  const withoutBase64 = `module WithoutBase64
  def require(name)
    raise LoadError, 'cannot load such file -- base64' if name == 'base64'
    super
  end
end
Kernel.prepend(WithoutBase64)
load './examples/standalone/payin.rb'
`;

  it('accepts a webhook the proxy signed and signs an order token, with the core library alone', async () => {
    const body = JSON.stringify({ type: 'payment.updated', data: { orderId: 'A-1', outcome: 'paid', amount: '499.00' } });
    const headers = signedWebhook('msg_p4_finished', body);
    const verify = `${withoutBase64}h = %w[webhook-id webhook-timestamp webhook-signature].to_h { |n| [n, ENV.fetch(n.upcase.tr('-', '_'))] }
puts(verify_webhook(ENV.fetch('WEBHOOK_SECRET'), h, $stdin.binmode.read) ? 'ok' : 'refused')`;
    expect(run('ruby', 'apt-get install ruby', ['-e', verify], headers, body)).toBe('ok');
    const sign = `${withoutBase64}puts sign_order_token(ENV.fetch('ORDER_TOKEN_SECRET'), 'A-7', '499.00', 'INR')`;
    const token = run('ruby', 'apt-get install ruby', ['-e', sign], { ORDER_TOKEN_SECRET: TOKEN_SECRET });
    expect((await verifyOrderToken(TOKEN_SECRET, token, 'A-7', Date.now())).ok).toBe(true);
  });
});
