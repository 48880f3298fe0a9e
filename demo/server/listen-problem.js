// @ts-check
/**
 * Why one of the demo's two servers could not listen, naming the variable that moves it. Node's own words
 * ("listen EADDRINUSE: address already in use 127.0.0.1:5173") say neither which server it was nor what to change,
 * and a taken port is what a newcomer meets first: Vite's dev server also listens on 5173 by default, and the
 * README's first integration starts a sandbox of its own on 4010.
 */

/**
 * @param {unknown} error what listening threw
 * @param {'PORT' | 'SANDBOX_PORT'} variable the setting of the server that could not listen
 * @param {string} host
 * @param {number} port
 * @returns {unknown} an Error naming the variable for a taken port; any other error as it came
 */
export function listenProblem(error, variable, host, port) {
  if (/** @type {{ code?: unknown }} */ (error)?.code !== 'EADDRINUSE') return error;
  const likely = variable === 'SANDBOX_PORT' ? ', perhaps a sandbox you started (npx payin-checkout sandbox)' : '';
  return new Error(
    `${variable} (${port}): another program already listens on ${host}:${port}${likely}: stop it, or set ${variable} to another port (0 picks a free one)`,
    { cause: error },
  );
}
