'use strict';
// The docker scenario files (test/e2e/, run by docker-compose.yml in the mysql:8.4 image, where
// docker runs) under the real Shell and a real MySQL here: the same script, the same commands.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { needs, ROOT, MYSQLSH } = require('../support/real');
const { tempDir, installPlugin, shellEnv, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');

describe('docker scenario files under the real Shell', function () {
  let server;
  before(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () { if (server) await server.query('DROP SCHEMA IF EXISTS shop'); });

  it('test/e2e/demo.sh: a full and a partial load straight from (a copy of) the sample dump, which is left as it was', async function () {
    this.timeout(300000);
    const bin = tempDir('restore-bin-');
    // `mysqlsh` on PATH, as in the image (the shared launcher finds its bundle from its own place).
    fs.writeFileSync(path.join(bin, 'mysqlsh'), `#!/bin/sh\nexec '${MYSQLSH}' "$@"\n`, { mode: 0o755 });
    const home = installPlugin(tempDir('restore-cfg-'));
    const samples = path.dirname(copyDump(path.join(ROOT, 'sample-dumps', 'shop'))); // never the committed one in place
    const before = hashSandbox([samples]);
    const r = spawnSync('bash', [path.join(ROOT, 'test', 'e2e', 'demo.sh')], { encoding: 'utf8', timeout: 280000,
      env: { ...shellEnv({ configHome: home }), PATH: `${bin}:${process.env.PATH}`, MYSQL_URI: server.uri, SAMPLE_DUMPS: samples } });
    const out = r.stdout + r.stderr;
    expect(r.status, out.slice(-3000)).to.equal(0);
    expect(out).to.match(/Load view removed: /);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(2000);
    // audit_log, excluded from the partial load, is still the full load's.
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.audit_log'))).to.equal(2000);
    expect(diffSandbox(before, hashSandbox([samples]))).to.deep.equal(UNCHANGED);
  });
});
