/** An address as a log line may show it: its origin and path, never a key in its query or a user name and password. */
export function shownUrl(url: string): string {
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname}`;
}
