// Not part of the test run: renders every screen of the element in Chromium and saves PNGs for a person to look
// at. `npx web-test-runner --config test/widget/screenshots.config.mjs`; the folder is SCREENSHOT_DIR, else the
// system's temporary folder (never the repository).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import base from '../../web-test-runner.config.mjs';

const dir = process.env.SCREENSHOT_DIR || join(tmpdir(), 'payin-checkout-screenshots');
mkdirSync(dir, { recursive: true });

function screenshotCommand() {
  return {
    name: 'screenshot-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'screenshot') return undefined;
      const page = session.browser.getPage(session.id);
      const element = await page.$(payload.selector ?? 'payin-checkout');
      await element.screenshot({ path: join(dir, `${payload.name}.png`) });
      return join(dir, `${payload.name}.png`);
    },
  };
}

export default {
  ...base,
  files: ['test/widget/screenshots.shots.ts'],
  testFramework: { config: { timeout: 120_000 } },
  plugins: [...base.plugins, screenshotCommand()],
};
