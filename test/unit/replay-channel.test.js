'use strict';
// What the target's server does on the applier road (lib/binlog/replay-channel.js): the statements that hand it the
// stop and the schema rename, every name quoted; the feed then leaves TABLE_MAP events and default schemas as they are.
// The server's side of it runs in test/shell/pitr-applier.test.js.
const { expect } = require('chai');
const channel = require('../../lib/binlog/replay-channel.js');
const { firstPastStop } = require('../../lib/binlog/replay-stops.js');

const U = '3e11fa47-71ca-11e1-9e33-c80aa9429562';

describe('replay channel: the stop and the rename as the server\'s work', function () {
  it('a stop and a schemaMap: START REPLICA UNTIL SQL_BEFORE_GTIDS the next transaction, REPLICATE_REWRITE_DB with each name quoted', function () {
    const plan = { next: { gtid: `${U}:7`, file: 'binlog.000002', start: 400, end: 900 }, rewrite: { schemaMap: { shop: 'shop_copy', 'we`ird': 'b' } } };
    const w = channel.serverWork(plan);
    expect(channel.startStatement(w.until)).to.equal(`START REPLICA UNTIL SQL_BEFORE_GTIDS = '${U}:7' FOR CHANNEL 'restore_replay'`);
    expect(channel.filterStatement(w)).to.equal('CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((`shop`, `shop_copy`), (`we``ird`, `b`)) ' +
      "FOR CHANNEL 'restore_replay'");
    // The feed keeps only the statements' own texts: TABLE_MAP events and default schemas pass as the files have them.
    expect(channel.feedRewrite(plan, w)).to.deep.equal({ schemaMap: null });
    expect(channel.workText(w)).to.include(`it stops by itself before ${U}:7`).and.include('REPLICATE_REWRITE_DB shop -> shop_copy, we`ird -> b');
  });

  it('a target with lower_case_table_names 1, the dump\'s schema names not known: the plugin keeps renaming, and says so', function () {
    const plan = { next: null, rewrite: { schemaMap: { Shop: 'shop_copy' } } };
    const w = channel.serverWork(plan, 1);
    expect(channel.filterStatement(w)).to.equal(null);
    expect(channel.feedRewrite(plan, w)).to.deep.equal({ schemaMap: { Shop: 'shop_copy' } });
    expect(channel.workText(w)).to.include('schemaMap\'s names rewritten by the plugin, not the channel\'s filter (lower_case_table_names 1');
  });

  // Measured on 9.7.4 (lib/binlog/replay-channel.js serverWork): given as typed, a new name with capitals wedged lctn 2's
  // applier and crashed lctn 1's mysqld; in lower case the rows were the source's, a compressed transaction's too.
  it('lower_case_table_names 1 or 2 with the dump\'s schema names known: the channel\'s filter renames, each new name in lower case', function () {
    for (const lc of [1, 2]) {
      const plan = { next: null, rewrite: { schemaMap: { Shop: 'Shop_copy' }, schemas: ['Shop', 'other'] } };
      const w = channel.serverWork(plan, lc);
      expect(channel.filterStatement(w)).to.equal("CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((`Shop`, `shop_copy`)) FOR CHANNEL 'restore_replay'");
      expect(channel.feedRewrite(plan, w)).to.deep.equal({ schemaMap: null });
      expect(channel.workText(w)).to.include(`REPLICATE_REWRITE_DB Shop -> shop_copy), the new names in lower case as lower_case_table_names ${lc} compares them`);
    }
  });

  it('lower_case_table_names 2 and a dump holding Shop and shop, or a name other than ASCII: the plugin keeps renaming (the filter is case-blind)', function () {
    for (const rewrite of [{ schemaMap: { Shop: 'a' }, schemas: ['Shop', 'shop'] }, { schemaMap: { Shop: 'Größe' }, schemas: ['Shop'] }]) {
      const plan = { next: null, rewrite };
      const w = channel.serverWork(plan, 2);
      expect(channel.filterStatement(w)).to.equal(null);
      expect(channel.feedRewrite(plan, w)).to.deep.equal({ schemaMap: rewrite.schemaMap });
      expect(channel.workText(w)).to.include('schemaMap\'s names rewritten by the plugin, not the channel\'s filter (lower_case_table_names 2');
    }
  });

  it('no stop in the files and no schemaMap: a plain START REPLICA, no filter, nothing for the feed to rewrite', function () {
    const w = channel.serverWork({ next: null, rewrite: null });
    expect(channel.startStatement(w.until)).to.equal("START REPLICA FOR CHANNEL 'restore_replay'");
    expect(channel.filterStatement(w)).to.equal(null);
    expect(channel.feedRewrite({}, w)).to.equal(null);
    expect(channel.workText(w)).to.equal('');
  });

  it('the transaction the UNTIL names: the first past the stop, under the GTID the target sees (its own, or the one derived); none where that is not sure', function () {
    const t = { gtid: `${U}:7`, file: 'binlog.000002', start: 400, end: 900, undecoded: [] };
    const reached = (numbered) => ({ reached: true, numbered });
    expect(firstPastStop(t, reached(0))).to.deep.equal({ gtid: `${U}:7`, file: 'binlog.000002', start: 400, end: 900 });
    // GTIDs off at the source: the number the replay would have given it.
    expect(firstPastStop({ ...t, gtid: null }, reached(11), { uuid: U }).gtid).to.equal(`${U}:12`);
    // No GTID and none derived (GTIDs turned off after a dump that records them): the next GTID is another transaction's.
    expect(firstPastStop({ ...t, gtid: null }, reached(11), null)).to.equal(null);
    expect(firstPastStop(t, { reached: false, numbered: 0 })).to.equal(null); // the files end before the stop
    expect(firstPastStop({ ...t, incomplete: 'the file ends inside it' }, reached(0))).to.equal(null);
    expect(firstPastStop({ ...t, gtid: null, undecoded: ['a tagged GTID event of a format this reader does not know'] }, reached(8))).to.equal(null);
    expect(firstPastStop(undefined, reached(0))).to.equal(null);
  });
});
