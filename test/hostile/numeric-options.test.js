'use strict';
// Issue 26, 3: numbers the plugin passes on are checked before anything changes. util.loadDump
// (Shell 9.1) hangs for ever on threads: 0 — under fastest with the redo log off — and ends in
// "std::bad_alloc" on threads: 99999999999.
const { expect } = require('chai');
const { cli, tempDir } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { sandboxHooks, expectRefused } = require('./hostile-helpers');

describe('hostile 26/3: numeric options out of range are refused before anything changes (real Shell, real MySQL)', function () {
  const t = sandboxHooks();

  it('threads, backgroundThreads and maxBytesPerTransaction of load; bytesPerChunk and threads of dump', async function () {
    const { server, sb } = t;
    const before = sb.hash();
    const fp = await serverFingerprint(server);
    const cases = [
      ['--threads=0', /Option threads must be a whole number of threads from 1 to 1024, not 0\. Nothing was changed\./],
      ['--threads=99999999999', /Option threads must be a whole number of threads from 1 to 1024, not 99999999999/],
      ['--background-threads=2000', /Option backgroundThreads must be a whole number of threads from 1 to 1024, not 2000/],
      ['--max-bytes-per-transaction=100', /Option maxBytesPerTransaction must be a size such as "64M" \(k, M or G\) from 4096 bytes to 1T, not "100"/],
      ['--max-bytes-per-transaction=lots', /Option maxBytesPerTransaction must be a size .* not "lots"/],
    ];
    for (const [arg, message] of cases) {
      const r = cli(server.uri, ['load', sb.dump, '--preset=fastest', '--force', arg], { configHome: sb.home, timeout: 120000 });
      expectRefused(r, [message], sb, before);
      expect(await server.redoLog(), arg).to.equal('ON');
    }
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    const out = tempDir('restore-dump-out-');
    for (const [arg, message] of [['--bytes-per-chunk=1k', /Option bytesPerChunk must be a size .* from 131072 bytes to 1T, not "1k"/],
      ['--threads=0', /Option threads must be a whole number of threads from 1 to 1024, not 0/]]) {
      const r = cli(server.uri, ['dump', `${out}/d`, '--schemas=mysql', arg], { configHome: sb.home, timeout: 120000 });
      expectRefused(r, [message]);
    }
  });
});
