/**
 * Copying a requisite. The async Clipboard API needs a secure context and, in some browsers and embedded web
 * views, a permission that is refused; the fallback selects the text in an off-screen textarea and uses the old
 * copy command, which still works from a click. The textarea is positioned by a class of the element's own
 * stylesheet, never by an inline style (strict CSP). When both are refused (some in-app browsers), the element
 * selects the value for the shopper to copy by hand.
 */

export async function copyText(text: string, scratch: ParentNode & Node): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Refused, or no Clipboard API (an insecure context): try the fallback.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.className = 'copy-scratch';
  area.setAttribute('aria-hidden', 'true');
  area.tabIndex = -1;
  scratch.appendChild(area);
  const active = (scratch.getRootNode() as Document | ShadowRoot).activeElement as HTMLElement | null;
  try {
    area.select();
    area.setSelectionRange(0, text.length);
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    active?.focus();
  }
}
