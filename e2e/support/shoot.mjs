// Screenshots for looking at a change by eye (not a test): node e2e/support/shoot.mjs [path] [out] [wait-ms]
import { openApp } from './browser.mjs';

const [path = '/', out = '/tmp/shots/app.png', waitMs = '3000', width = '1440', height = '900'] = process.argv.slice(2);
const app = await openApp({ width: Number(width), height: Number(height), path });
await app.page.waitForTimeout(Number(waitMs));
await app.page.screenshot({ path: out });
await app.close();
console.log(`wrote ${out}`);
