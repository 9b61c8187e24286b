// One solution action of a lesson step made by hand through the controls a learner sees: the node's
// own menu (crash, restart, pause for a length, resume, isolate, clock jumps, lying, removal), the
// link's menu (cut one way or both, a slow link), the partition chips, the client panel (writes and
// reads), "Heal all", "Add a server" and "Send a malformed write". Targets are resolved on screen: "leader" is whoever the
// playback bar's leader chip names (the node with the star), any other name is the node labelled so.
import { waitUntil } from './cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const QUICK_PAUSES_MS = new Map([[200, '200 ms'], [1000, '1 s'], [5000, '5 s']]);
const LIE_BUTTONS = { lie: 'Lie', silent: 'Go silent', equivocate: 'Equivocate', selective: 'Go silent to half' };

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every node on the ring: `{ id, name, status }` (id as in data-testid, name as drawn). */
export async function ringNodes(page) {
  return page.$$eval('[data-testid=cluster-view] g[data-testid^="node-n"]', (elements) =>
    elements.map((element) => ({
      id: element.getAttribute('data-testid').slice('node-'.length),
      name: element.querySelector('text.node-id')?.textContent?.trim() ?? '',
      status: /\bstatus-([a-z]+)/.exec(element.getAttribute('class') ?? '')?.[1] ?? null,
      leader: /\brole-leader\b/.test(element.getAttribute('class') ?? ''),
    })),
  );
}

/** The name a solution's target stands for now, or null ("leader" while nobody leads). */
async function resolveTarget(page, target) {
  if (target !== 'leader') return target;
  const chip = ((await page.textContent('[data-testid=leader-chip]')) ?? '').trim();
  const named = /^leader: (\S+)/.exec(chip)?.[1];
  if (named) return named;
  const starred = (await ringNodes(page)).filter((node) => node.leader && node.status === 'up');
  return starred.length === 1 ? starred[0].name : null;
}

async function nodeByName(page, name) {
  const node = (await ringNodes(page)).find((candidate) => candidate.name === name || candidate.id === name);
  if (!node) throw new Error(`no node named ${name} on the ring`);
  return node;
}

export class Moves {
  constructor(hand) {
    this.hand = hand;
    this.page = hand.page;
    // The node each kind of move was last made on, by name ("isolate" → "n3").
    this.resolved = {};
  }

  /** Opens the node's menu by pressing the node on the ring. */
  async openMenu(name) {
    const node = await nodeByName(this.page, name);
    const popover = this.page.locator(POPOVER);
    if ((await popover.count()) > 0) await this.closeMenu();
    const body = this.page.locator(`[data-testid=cluster-view] [data-testid=node-${node.id}] .node-body`);
    await this.hand.press(body, `node ${name} on the ring`, { hitWithin: 'g[data-testid^="node-"]' });
    await popover.waitFor({ timeout: 10_000 });
    const label = await popover.getAttribute('aria-label');
    if (label !== `Actions on ${node.name}`) throw new Error(`pressing ${name} opened "${label}"`);
    return node.name;
  }

  async closeMenu() {
    const close = this.page.locator(`${POPOVER} button.popover-close`);
    if ((await close.count()) === 0) return;
    await this.hand.press(close, 'the node menu\'s close button ✕');
    await this.page.locator(POPOVER).waitFor({ state: 'detached', timeout: 5_000 });
  }

  /** Presses the menu button whose spoken name starts with `prefix`; returns false when it is not offered. */
  async menuButton(prefix, what, { optional = false } = {}) {
    const button = this.page.locator(`${POPOVER} button[aria-label^="${prefix.replace(/"/g, '\\"')}"]`);
    if ((await button.count()) === 0) {
      if (optional) return false;
      const offered = await this.page.locator(`${POPOVER} button`).evaluateAll((all) => all.map((b) => b.getAttribute('aria-label') ?? b.textContent));
      throw new Error(`${what}: the node menu offers no "${prefix}…" (it offers: ${offered.join(' | ')})`);
    }
    await this.hand.press(button, what);
    return true;
  }

  /** A move on one node through its menu; returns a note when the move was not needed (done already). */
  async onNode(action) {
    const name = await resolveTarget(this.page, action.target);
    if (!name) return `${action.do} ${action.target}: nobody to act on`;
    const shown = await this.openMenu(name);
    this.resolved[action.do] = shown;
    let note = null;
    switch (action.do) {
      case 'crash':
        if (!(await this.menuButton(`Crash ${shown}`, `Crash ${shown}`, { optional: true }))) note = `${shown} was down already`;
        break;
      case 'restart':
        if (!(await this.menuButton(`Restart ${shown}`, `Restart ${shown}`, { optional: true }))) note = `${shown} was up already`;
        break;
      case 'resume':
        await this.menuButton(`Resume ${shown}`, `Resume ${shown}`);
        break;
      case 'isolate':
        await this.menuButton(`Isolate ${shown}`, `Isolate ${shown}`);
        break;
      case 'remove-server':
        await this.menuButton(`Remove this server, ${shown},`, `Remove ${shown}`);
        break;
      case 'pause':
        await this.pause(shown, action.duration_ms);
        break;
      case 'clock_jump':
        await this.clockJump(shown, action.by_ms);
        break;
      case 'byzantine':
        if (action.mode === 'honest') await this.menuButton(`Make honest, ${shown}`, `Make ${shown} honest`);
        else await this.menuButton(`${LIE_BUTTONS[action.mode]}, make ${shown} Byzantine`, `${action.mode} on ${shown}`);
        break;
      default:
        throw new Error(`no node move for ${action.do}`);
    }
    await this.closeMenu();
    return note;
  }

  async pause(name, durationMs) {
    if (durationMs === undefined) return this.menuButton(`Pause until resumed, ${name}`, `Pause ${name} until resumed`);
    if (QUICK_PAUSES_MS.has(durationMs)) return this.menuButton(`Pause ${QUICK_PAUSES_MS.get(durationMs)}, ${name}`, `Pause ${name} ${durationMs} ms`);
    // Any other length goes in the menu's "any length" field, then its Pause button.
    await this.hand.type(this.page.locator(`${POPOVER} [data-testid=pause-ms]`), String(durationMs), `the pause length field of ${name}`);
    await this.hand.press(this.page.locator(`${POPOVER} [data-testid=pause-for-ms]`), `Pause ${name} for the length typed`);
    return true;
  }

  /** The menu offers jumps of 500 ms either way: a jump of 1500 ms back is three presses. */
  async clockJump(name, byMs) {
    if (byMs % 500 !== 0) throw new Error(`a clock jump of ${byMs} ms cannot be made from the menu's ±500 ms buttons`);
    const sign = byMs < 0 ? '−' : '+';
    for (let presses = 0; presses < Math.abs(byMs) / 500; presses += 1) {
      await this.menuButton(`Clock ${sign}500 ms, ${name}`, `Clock ${sign}500 ms on ${name}`);
    }
  }

  /** Opens the menu of the link between two nodes by pressing its line where nothing covers it. */
  async openLinkMenu(a, b) {
    const [first, second] = [await nodeByName(this.page, a), await nodeByName(this.page, b)].sort(
      (x, y) => Number(x.id.slice(1)) - Number(y.id.slice(1)),
    );
    const link = this.page.locator(`[data-testid=cluster-view] [data-testid=link-${first.id}-${second.id}]`);
    const menu = this.page.locator('[data-testid=link-menu]');
    await this.hand.pressLine(link, `the link ${first.name} — ${second.name}`);
    // A line is a thin target: a press that opened nothing is made again, as a learner would.
    if (!(await menu.waitFor({ timeout: 2_000 }).then(() => true, () => false))) {
      this.hand.notes.push(`the link ${first.name} — ${second.name} needed a second press`);
      await this.hand.pressLine(link, `the link ${first.name} — ${second.name}`);
    }
    await menu.waitFor({ timeout: 10_000 });
    return { first, second };
  }

  async cut(action) {
    const from = await nodeByName(this.page, action.from);
    const to = await nodeByName(this.page, action.to);
    await this.openLinkMenu(action.from, action.to);
    const menu = this.page.locator('[data-testid=link-menu]');
    if (action.both) {
      await this.hand.press(menu.locator('button', { hasText: /^Cut both ways$/ }), 'Cut both ways');
      return null;
    }
    const either = (node) => `(?:${escape(node.name)}|${escape(node.id)})`;
    const oneWay = menu.locator('button', { hasText: new RegExp(`^Cut ${either(from)} → ${either(to)}$`) });
    await this.hand.press(oneWay, `Cut ${from.name} → ${to.name}`);
    return null;
  }

  async slowLink(action) {
    const [a, b] = action.between;
    await this.openLinkMenu(a, b);
    const [low, high] = action.delay_ms;
    await this.hand.type(this.page.locator('[data-testid=link-delay-min]'), String(low), 'the link\'s shortest delay');
    await this.hand.type(this.page.locator('[data-testid=link-delay-max]'), String(high), 'the link\'s longest delay');
    await this.hand.press(this.page.locator('[data-testid=link-apply]'), 'Apply to this link');
    await this.page.locator('[data-testid=link-menu]').waitFor({ state: 'detached', timeout: 5_000 });
    return null;
  }

  /** Moves each chip round A → B → C to its group, then applies. */
  async partition(action) {
    const letters = ['A', 'B', 'C'];
    for (const [group, names] of action.groups.entries()) {
      for (const name of names) {
        const chip = this.page.locator(`[data-testid=partition-chip-${name}]`);
        for (let presses = 0; !(await chip.textContent()).trim().endsWith(`· ${letters[group]}`); presses += 1) {
          if (presses >= 3) throw new Error(`chip ${name} never reaches group ${letters[group]}`);
          await this.hand.press(chip, `the partition chip of ${name}`);
        }
      }
    }
    await this.hand.press(this.page.locator('[data-testid=apply-partition]'), 'Apply partition');
    return null;
  }

  /** Writes or reads through the client panel, `count` times, to the leader or a named server. */
  async request(action) {
    const panel = this.page.locator('[data-testid=client-panel]');
    const select = panel.locator('[data-testid=request-target]');
    await this.hand.choose(select, action.target && action.target !== 'leader' ? action.target : 'leader', 'the client panel\'s target menu');
    const button = action.kind === 'get' ? panel.locator('button', { hasText: /^Read$/ }) : panel.locator('[data-testid=send-write]');
    for (let sent = 0; sent < (action.count ?? 1); sent += 1) {
      await this.hand.press(button, action.kind === 'get' ? 'the client panel\'s Read' : 'the client panel\'s Write');
    }
    return null;
  }

  /** Makes one solution action; returns a note when it did not need doing. */
  async make(action) {
    switch (action.do) {
      case 'heal':
        await this.hand.press(this.page.locator('button[aria-label="Heal all (H)"]'), 'Heal all');
        return null;
      case 'add-server': {
        const before = (await ringNodes(this.page)).length;
        await this.hand.press(this.page.locator('[data-testid=add-server]'), 'Add a server');
        await waitUntil(async () => (await ringNodes(this.page)).length > before, { what: 'the new server on the ring' });
        return null;
      }
      case 'malformed_write': {
        // The button always sends a missing token from the first worker that is up (the line beside it says which).
        await this.hand.press(this.page.locator('[data-testid=send-malformed-write]'), 'Send a malformed write');
        const sender = (await this.page.textContent('[data-testid=malformed-write-sender]')) ?? '';
        return sender.trim().startsWith(`${action.target} `) ? null : `the malformed write went from ${sender.trim()}, not ${action.target}`;
      }
      case 'request':
        return this.request(action);
      case 'partition':
        return this.partition(action);
      case 'cut':
        return this.cut(action);
      case 'link':
        return this.slowLink(action);
      default:
        return this.onNode(action);
    }
  }
}
