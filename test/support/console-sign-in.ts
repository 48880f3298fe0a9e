/**
 * Signs in to a running server's operator console the way the login form does (a POST of the token, answered 303
 * with the session cookie), for tests that then call the console's API over HTTP. Throws when the sign-in is refused.
 */
export async function signInToConsole(serverUrl: string, token: string, basePath = '/payin'): Promise<string> {
  const login = await fetch(`${serverUrl}${basePath}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (login.status !== 303 || !cookie) throw new Error(`the console sign-in answered ${login.status}, not 303 with a session cookie`);
  return cookie;
}
