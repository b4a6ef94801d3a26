'use strict';
// A member's replication read before a load (lib/server/member-health.js): which replication
// filters keep loaded tables from it (as the server applies them: the database rewritten, then the
// database filters, then the table filters), and what a stopped, failed or delayed channel means.
const { expect } = require('chai');
const health = require('../../lib/server/member-health.js');

const T = [{ schema: 'shop', table: 'orders' }, { schema: 'shop', table: 'customers' }, { schema: 'crm', table: 'notes' }];
const drops = (filters) => health.filterDrops(filters.map(([name, rule]) => ({ name, rule })), T)
  .map((d) => [d.filter, d.tables.join(' ')]);
const channel = (o) => Object.assign({ channel: '', io: 'Yes', sql: 'Yes', ioErrno: 0, ioError: '', sqlErrno: 0, sqlError: '', delay: 0, filters: [] }, o);

describe('member health: filters, stopped, failed and delayed channels (lib/server/member-health.js)', function () {
  it('database filters: do-db keeps what it does not name, ignore-db what it names; a rewrite sends rows elsewhere', function () {
    expect(drops([['REPLICATE_DO_DB', 'shop']])).to.deep.equal([['REPLICATE_DO_DB = (shop)', 'crm.notes']]);
    expect(drops([['REPLICATE_IGNORE_DB', 'crm,other']])).to.deep.equal([['REPLICATE_IGNORE_DB = (crm)', 'crm.notes']]);
    expect(drops([['REPLICATE_REWRITE_DB', '(shop,shop_copy)']])).to.deep.equal([
      ['REPLICATE_REWRITE_DB = (shop, shop_copy) (its rows go to shop_copy there)', 'shop.orders shop.customers']]);
    expect(drops([['REPLICATE_IGNORE_DB', 'other'], ['REPLICATE_DO_DB', 'shop,crm']])).to.deep.equal([]);
  });

  it('table filters: do-table first, then ignore-table, wild-do, wild-ignore; any do filter keeps what it does not match', function () {
    expect(drops([['REPLICATE_IGNORE_TABLE', 'shop.orders']])).to.deep.equal([['REPLICATE_IGNORE_TABLE = (shop.orders)', 'shop.orders']]);
    expect(drops([['REPLICATE_WILD_IGNORE_TABLE', 'shop.c%']])).to.deep.equal([["REPLICATE_WILD_IGNORE_TABLE = ('shop.c%')", 'shop.customers']]);
    expect(drops([['REPLICATE_WILD_DO_TABLE', 'shop.%']])).to.deep.equal([["REPLICATE_WILD_DO_TABLE = ('shop.%') (not named there)", 'crm.notes']]);
    expect(drops([['REPLICATE_DO_TABLE', 'shop.orders'], ['REPLICATE_WILD_IGNORE_TABLE', 'shop.%'], ['REPLICATE_WILD_DO_TABLE', 'crm.%']]))
      .to.deep.equal([["REPLICATE_WILD_IGNORE_TABLE = ('shop.%')", 'shop.customers']]);
    expect(health.wildMatches('sh\\_p.%', 'sh_p.x')).to.equal(true);
    expect(health.wildMatches('sh\\_p.%', 'shop.x')).to.equal(false);
  });

  it('a channel: running is waited for (its delay and its sources\' counted in); stopped or delayed past the timeout is not; an error or a filter refuses', function () {
    expect(health.replicaHealth(channel({}), T, 600, null, 'S:1')).to.include({ wait: true, delay: 0, refuse: null });
    expect(health.replicaHealth(channel({ io: 'Connecting' }), T, 600, null, 'S:1').wait).to.equal(true);
    const delayed = health.replicaHealth(channel({ delay: 30 }), T, 600, { wait: true, delay: 20 }, 'R1:1');
    expect([delayed.wait, delayed.delay]).to.deep.equal([true, 50]);
    const far = health.replicaHealth(channel({ delay: 700 }), T, 600, null, 'S:1');
    expect([far.wait, far.refuse]).to.deep.equal([false, null]);
    expect(far.why).to.match(/700 s later \(SOURCE_DELAY\), beyond membersTimeout 600 s/);
    const stopped = health.replicaHealth(channel({ sql: 'No' }), T, 600, null, 'S:1');
    expect([stopped.wait, stopped.refuse, stopped.why]).to.deep.equal([false, null, 'its replication is stopped (IO Yes, SQL No)']);
    const away = health.replicaHealth(channel({ io: 'Connecting', ioErrno: 2003, ioError: 'cannot connect' }), T, 600, null, 'S:1');
    expect([away.wait, away.refuse]).to.deep.equal([false, null]);
    expect(away.why).to.equal('it cannot reach S:1 now (IO Connecting, error 2003: cannot connect)');
    expect(health.replicaHealth(channel({ sql: 'No', sqlErrno: 1146, sqlError: 'no table' }), T, 600, null, 'S:1').refuse)
      .to.equal('its applier stopped on error 1146 (no table)');
    expect(health.replicaHealth(channel({ io: 'No', ioErrno: 13114, ioError: 'purged' }), T, 600, null, 'S:1').refuse)
      .to.equal('its connection to S:1 stopped on error 13114 (purged)');
    const below = health.replicaHealth(channel({}), T, 600, stopped, 'R1:1');
    expect([below.wait, below.why]).to.deep.equal([false, 'its source R1:1 is not applying the load now (its replication is stopped (IO Yes, SQL No))']);
    expect(health.replicaHealth(null, T, 600, null, 'S:1').why).to.match(/no replication channel from S:1/);
  });
});
