// The mail catcher drives maildev's private modules (lib/mailserver, lib/web, lib/logger) rather
// than its public entry point, whose SIGINT/SIGTERM handlers call process.exit() and would cut the
// stack's orderly stop short, and wraps the module functions its web API calls so messages are
// parsed only when first looked at (index.ts). Private modules change without notice: these
// checks fail on any maildev upgrade, so the wrapping is looked at again before a new version
// goes in. On an upgrade: check each point below against the new version, then change the pin.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { READERS } from './index.ts';

const require = createRequire(import.meta.url);
const source = (file: string) => readFileSync(require.resolve(`maildev/${file}`), 'utf8');

/** The module functions of maildev's mail server that its web API and web UI call. */
function mailserverCalls(file: string): string[] {
  return [...new Set([...source(file).matchAll(/mailserver\.(\w+)/g)].map((m) => m[1]))].sort();
}

describe('maildev, driven through its private modules', () => {
  it('is the version whose internals the catcher was written against', () => {
    expect((require('maildev/package.json') as { version: string }).version).toBe('2.2.1');
  });

  it('still installs process.exit() on SIGINT and SIGTERM in its public entry point', () => {
    // Once it no longer does, the catcher can start maildev through `new MailDev(…)` instead.
    expect(source('index.js')).toMatch(/process\.on\('SIGINT', shutdown\)/);
    expect(source('index.js')).toMatch(/process\.exit\(0\)/);
  });

  it('has every module function the catcher calls or wraps', () => {
    const mailserver = require('maildev/lib/mailserver') as Record<string, unknown>;
    for (const name of [
      ...READERS,
      'create',
      'listen',
      'close',
      'deleteAllEmail',
      'on',
      'once',
      'removeListener',
    ]) {
      expect(typeof mailserver[name], name).toBe('function');
    }
    const web = require('maildev/lib/web') as Record<string, unknown>;
    expect(typeof web.start).toBe('function');
    expect(typeof web.close).toBe('function');
    expect(web.server).toBeNull();
    const logger = require('maildev/lib/logger') as Record<string, unknown>;
    expect(typeof logger.setLevel).toBe('function');
  });

  it('hands each message to the SMTP server’s onData, which the catcher replaces', () => {
    expect(source('lib/mailserver.js')).toMatch(/onData: handleDataStream/);
    expect(source('lib/mailserver.js')).toMatch(/mailServer\.smtp = smtp/);
  });

  it('reads and changes messages in its web API only through the functions the catcher wraps', () => {
    // Wrapped: READERS (and deleteAllEmail) hand the waiting messages over first. Not wrapped:
    // what reads no message, and readEmail, which 2.2.1's mail server does not define.
    const unwrapped = [
      'getOutgoingHost',
      'isOutgoingEnabled',
      'loadMailsFromDirectory',
      'port',
      'readEmail',
    ];
    expect(mailserverCalls('lib/routes.js')).toEqual(
      [...READERS, 'deleteAllEmail', ...unwrapped].sort(),
    );
    // The web UI's sockets subscribe to 'new', which starts a hand-over (index.ts).
    expect(mailserverCalls('lib/web.js')).toEqual(['on', 'removeListener']);
  });
});
