'use strict';
// Binary logs copied from a replica carry two clocks per transaction: when the source committed it
// (original_commit_timestamp) and when the replica applied it (immediate_commit_timestamp). until and
// since mean the source's time: a replica that applied transactions late (its applier stopped for a
// while) does not move them. The run's shared replica set (test/support/topology.js).
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { needs } = require('../support/real');
const { cli, tempDir } = require('../support/shell');
const { sharedReplicaSet } = require('../support/topology');

describe('restore binlogs on a replica\'s binary logs: the source\'s commit time (real Shell, real MySQL)', function () {
  let set = null;

  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    set = await sharedReplicaSet();
  });

  after(async function () {
    if (!set) return;
    this.timeout(60000);
    await set.source.query('DROP SCHEMA IF EXISTS binlog_clock');
    await set.waitApplied();
  });

  it('until and since are compared with the source\'s commit time, not when the replica applied it', async function () {
    this.timeout(120000);
    const { source } = set;
    const replica = set.replicas[0];
    await source.query('CREATE SCHEMA binlog_clock; CREATE TABLE binlog_clock.t (id INT PRIMARY KEY)');
    await set.waitApplied();
    // Three commits on the source while the replica's applier is stopped: it applies them 3 s later.
    await replica.query('STOP REPLICA SQL_THREAD');
    let between;
    try {
      for (let i = 1; i <= 3; i++) await source.query('INSERT INTO binlog_clock.t VALUES (?)', [i]);
      between = String(await source.value("SELECT DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:%s.%f')"));
      await new Promise((ok) => setTimeout(ok, 3000));
      await source.query('INSERT INTO binlog_clock.t VALUES (4)');
    } finally {
      await replica.query('START REPLICA SQL_THREAD');
    }
    await set.waitApplied();
    await replica.query('FLUSH BINARY LOGS');
    const folder = tempDir('binlog-clock-');
    for (const f of fs.readdirSync(replica.datadir).filter((n) => /^binlog\.\d+$/.test(n))) {
      fs.copyFileSync(path.join(replica.datadir, f), path.join(folder, f));
    }
    const report = (opt) => {
      const r = cli(null, ['binlogs', folder, opt, '--tables=binlog_clock.t', '--output-format=json']);
      expect(r.status, r.out).to.equal(0);
      return JSON.parse(r.stdout).tables.find((t) => t.table === 'binlog_clock.t') || { transactions: 0 };
    };
    // On the replica's clock all four were applied after `between`; on the source's, three before it.
    expect(report(`--until=${between}Z`).transactions).to.equal(3);
    expect(report(`--since=${between}Z`).transactions).to.equal(1);
  });
});
