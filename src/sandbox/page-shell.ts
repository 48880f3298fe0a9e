/**
 * The frame of the sandbox's small HTML pages (the hosted payment page, the page that plays the phone): a mobile
 * viewport, the console's stylesheet and one module script, both files, so the pages keep the sandbox's strict
 * CSP. `assets` is the relative path to the sandbox's root from the page (`../` below /pay/).
 */

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function pageShell({ title, assets, script, main }: { title: string; assets: string; script: string; main: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} - payin-checkout sandbox</title>
<link rel="stylesheet" href="${assets}console.css">
<script type="module" src="${assets}${script}"></script>
</head>
<body>
${main}
</body>
</html>
`;
}
