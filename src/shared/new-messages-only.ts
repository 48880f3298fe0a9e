/**
 * A reporter that passes an error on only when its message differs from the last one passed: a client that
 * reconnects in the background (ioredis) reports every failed attempt, and one line per new kind of failure says
 * what is wrong without filling the log while the server stays down.
 */
export function newMessagesOnly(report: (error: Error) => void): (error: Error) => void {
  let last = '';
  return (error) => {
    if (error.message === last) return;
    last = error.message;
    report(error);
  };
}
