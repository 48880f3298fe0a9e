/**
 * The console's HTML: the page that loads the console's own script (dist/console/payin-console.js, built apart
 * from the shopper's script so that nothing of it reaches a checkout), and the login form for a token sign-in.
 * Both pass a strict Content-Security-Policy: no inline script or style; the login form's few rules are a file.
 * The script is the text of a module the build writes (console/page-script.js), imported when the page first asks
 * for it, so that the console needs no file system and serves from any runtime, a worker's included. Every link
 * is relative to the page's own address (`ConsoleLinks`), so that the pages hold under a prefix the proxy cannot
 * see (Next's basePath, a front server that strips one).
 */

let script: Promise<string | undefined> | undefined;

/** The console's script, or undefined when this copy of the package was not built (tests that run the sources). */
export function consoleScript(): Promise<string | undefined> {
  script ??= import('../console/page-script.js').then(
    (module) => (typeof module.default === 'string' ? module.default : undefined),
    () => undefined,
  );
  return script;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The link from the page being answered to one of the console's routes ('' for the console itself, '/login'). */
export type ConsoleLinks = (route: string) => string;

/**
 * The start of every page, up to <body>. The empty icon (`data:`, which the page's img-src allows) stops the
 * browser asking the origin for /favicon.ico, which the shop's server answers with its own 404 or, in front of a
 * console under a prefix, not at all.
 */
function head(link: ConsoleLinks, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(link('/console.css'))}">
</head>
<body>`;
}

export function consolePage(link: ConsoleLinks): string {
  return `${head(link, 'Payments console')}
<payin-console base="${escapeHtml(link(''))}"></payin-console>
<script type="module" src="${escapeHtml(link('/console.js'))}"></script>
</body>
</html>
`;
}

/**
 * Why the form is shown again, in both of its languages, as its label and button are: the page is the server's
 * and knows no choice of the operator's yet. A refusal worded by the code that refused it (a cross-site post) has
 * English alone.
 */
export type LoginMessage = { en: string; ru: string } | string;

export const LOGIN_MESSAGES = {
  wrongToken: { en: 'That is not the console token.', ru: 'Это не токен консоли.' },
  tooManyTries: {
    en: 'Too many wrong tokens: wait a few minutes.',
    ru: 'Слишком много неверных токенов: подождите несколько минут.',
  },
  ledgerUnreachable: {
    en: 'The payment ledger cannot be reached just now: try again in a minute.',
    ru: 'Журнал платежей сейчас недоступен: попробуйте через минуту.',
  },
} satisfies Record<string, LoginMessage>;

function messageHtml(message: LoginMessage): string {
  if (typeof message === 'string') return escapeHtml(message);
  return `${escapeHtml(message.en)} <span lang="ru">${escapeHtml(message.ru)}</span>`;
}

export function loginPage(link: ConsoleLinks, message: LoginMessage | undefined): string {
  return `${head(link, 'Payments console: sign in')}
<main class="login">
<h1>Payments console</h1>
<form method="post" action="${escapeHtml(link('/login'))}">
<label for="token">Console token <span lang="ru">(токен консоли)</span></label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
${message ? `<p role="alert" class="error">${messageHtml(message)}</p>` : ''}
<button type="submit">Sign in · Войти</button>
</form>
</main>
</body>
</html>
`;
}

/**
 * For a console behind the shop's own sign-in (no token form): whoever it does not let in, a stranger or an
 * operator whose shop session has ended (the console's page reloads itself on a 401), reads what to do. It says
 * nothing of the payments, as the API's 401 does not.
 */
export function signInElsewherePage(link: ConsoleLinks): string {
  return `${head(link, 'Payments console: sign in')}
<main class="login">
<h1>Payments console</h1>
<p>Sign in to the shop as one of its operators, then open this page again.</p>
<p lang="ru">Войдите в магазин как его оператор и откройте эту страницу снова.</p>
</main>
</body>
</html>
`;
}

/** The page's few rules that live outside the Lit element: the body and the login form. */
export const CONSOLE_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
.login{max-width:22rem;margin:12vh auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
.login h1{font-size:1.3rem;margin:0 0 1rem}
.login label{display:block;font-weight:600;margin-bottom:.3rem}
.login input{width:100%;padding:.6rem;font:inherit;border:1px solid #8a929c;border-radius:8px}
.login button{margin-top:1rem;width:100%;padding:.65rem;font:inherit;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:8px;cursor:pointer}
.login .error{color:#b42318;margin:.6rem 0 0}
`;
