/**
 * Which phone the checkout is on, because the link that opens a payment app differs: Android opens an app by its
 * package through an `intent://` link, iOS only through each app's own scheme (it has no chooser for `upi://`).
 * The `platform` attribute overrides the guess (tests, web views that hide their user agent); else the user
 * agent decides. iPadOS announces itself as a Mac, so a "Mac" with a touch screen is taken for iOS.
 */

export type Platform = 'ios' | 'android' | 'desktop';

export function isPlatform(value: string): value is Platform {
  return value === 'ios' || value === 'android' || value === 'desktop';
}

export function detectPlatform(userAgent: string, maxTouchPoints = 0): Platform {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent) || (/macintosh/i.test(userAgent) && maxTouchPoints > 1)) return 'ios';
  return 'desktop';
}

/** The platform named by the attribute, else the one the browser reports. */
export function platformOf(attribute: string): Platform {
  if (isPlatform(attribute)) return attribute;
  return typeof navigator === 'undefined' ? 'desktop' : detectPlatform(navigator.userAgent, navigator.maxTouchPoints);
}
