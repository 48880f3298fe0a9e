/**
 * Which phone the checkout is on, because the link that opens a payment app differs: Android opens an app by its
 * package through an `intent://` link, iOS only through each app's own scheme (it has no chooser for `upi://`).
 * The `platform` attribute overrides the guess (tests, web views that hide their user agent); else the user
 * agent decides. iPadOS announces itself as a Mac, so a "Mac" with a touch screen is taken for iOS.
 */

export type Platform = 'ios' | 'android' | 'desktop';

/** The platform named by the attribute, else the one the browser reports. */
export function platformOf(attribute: string): Platform {
  if (/^(ios|android|desktop)$/.test(attribute)) return attribute as Platform;
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/android/i.test(ua)) return 'android';
  if (/iphone|ipad|ipod/i.test(ua) || (/macintosh/i.test(ua) && navigator.maxTouchPoints > 1)) return 'ios';
  return 'desktop';
}
