'use strict';
// A time of until / since given in the server's time zone where that zone changes its offset: a
// time the clocks skip, or one they go through twice, is refused with both instants it could mean
// (the server alone would take one without a word); with an offset it is taken as given. A server
// whose system time zone is America/New_York (TZ of mysqld, session time_zone SYSTEM).
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { startServer } = require('../support/server');
const { cli } = require('../support/shell');
const { needs } = require('../support/real');

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'binlogs');

describe('restore binlogs: times where the server\'s zone changes its offset (real Shell, real MySQL)', function () {
  let server = null;

  before(async function () {
    needs(this, ['shell', 'server']);
    if (!fs.existsSync('/usr/share/zoneinfo/America/New_York')) this.skip();
    this.timeout(120000);
    server = await startServer({ tz: 'America/New_York' });
  });

  after(async function () {
    this.timeout(60000);
    if (server) await server.stop();
  });

  function binlogs(option) {
    return cli(server.uri, ['binlogs', FIXTURES, option, '--output-format=json']);
  }

  it('refuses a time the clocks skip, and one they go through twice, naming both instants; an offset is taken as given', function () {
    this.timeout(60000);
    const gap = binlogs('--until=2026-03-08 02:30:00');
    expect(gap.status, gap.out).to.equal(1);
    const g = JSON.parse(gap.stdout).error;
    expect(g.code).to.equal('OPTION_INVALID');
    expect(g.message).to.include('until: "2026-03-08 02:30:00" does not exist in the time zone SYSTEM (EST): its offset changes there ' +
      'from -05:00 to -04:00 and the clocks skip that time. Give it with the offset meant: "2026-03-08 02:30:00-05:00" ' +
      '(2026-03-08 07:30:00 UTC) or "2026-03-08 02:30:00-04:00" (2026-03-08 06:30:00 UTC).');
    const twice = binlogs('--since=2026-11-01 01:30:00');
    expect(twice.status, twice.out).to.equal(1);
    expect(JSON.parse(twice.stdout).error.message).to.include('since: "2026-11-01 01:30:00" occurs twice in the time zone SYSTEM (EST): ' +
      'its offset changes there from -04:00 to -05:00 and the clocks go through that time again. Give it with the offset meant: ' +
      '"2026-11-01 01:30:00-04:00" (2026-11-01 05:30:00 UTC) or "2026-11-01 01:30:00-05:00" (2026-11-01 06:30:00 UTC).');
    for (const ok of ['--since=2026-11-01 01:30:00-04:00', '--until=2026-03-08 03:30:00', '--until=2026-07-01 12:00:00']) {
      const r = binlogs(ok);
      expect(r.status, ok + ': ' + r.out).to.equal(0);
    }
  });
});
