'use strict';
// restore.revert says what it did: "enabled again" only when it ran ALTER INSTANCE, "was ON;
// nothing to do" when the state file recorded the redo log off but the server has it ON.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const { revertMember } = require('../../lib/commands/revert');
const restoreState = require('../../lib/server/restore-state');

function hostWithState(redoLogStatus) {
  const host = fakeHost({ status: { Innodb_redo_log_enabled: redoLogStatus } });
  const path = restoreState.statePath(host, host.sql.serverInfo().uuid);
  host.files.makeDirs(host.files.dirname(path));
  host.files.writeFiles([{ path, data: JSON.stringify({ format: 1, serverUuid: host.sql.serverInfo().uuid, server: 'h:3306',
    createdAt: '2026-11-25T00:00:00Z', updatedAt: null, redoLog: { disabledBy: 'restore.load', at: '2026-11-25T00:00:00Z' },
    settings: [], owner: { connectionId: 424242, clientHost: null, serverStartedAt: 1 } }) }], { overwrite: false });
  return host;
}

describe('restore.revert wording (lib/commands/revert.js)', function () {
  it('the redo log recorded off but ON on the server: "was ON; nothing to do", no ALTER INSTANCE', function () {
    const host = hostWithState('ON');
    revertMember(host);
    expect(host.printed).to.include('InnoDB redo log: was ON; nothing to do.');
    expect(host.printed.join('\n')).to.not.include('enabled again');
    expect(host.statements().filter((s) => /ALTER INSTANCE/.test(s))).to.deep.equal([]);
  });

  it('the redo log OFF: enabled again, and said so', function () {
    const host = hostWithState('OFF');
    revertMember(host);
    expect(host.printed).to.include('InnoDB redo log: enabled again.');
    expect(host.statements().filter((s) => /ALTER INSTANCE ENABLE INNODB REDO_LOG/.test(s)).length).to.equal(1);
  });

  // After Ctrl-C in a replay by the target's applier (MySQL Shell ends the script; no finally runs), revert is what
  // the next load points to: it removes the plugin's channel, never another one of that name.
  function channelRow(user) {
    return [[/replication_connection_configuration/, { rows: user ? [{ user: user, io: 'CONNECTING' }] : [] }]];
  }

  it('a channel restore_replay of the plugin\'s user: stopped and removed, and said so', function () {
    const h = fakeHost({ status: { Innodb_redo_log_enabled: 'ON' }, sql: channelRow('mysqlsh_restore') });
    const r = revertMember(h);
    expect(h.statements().filter((s) => /REPLICA/.test(s))).to.deep.equal(["STOP REPLICA FOR CHANNEL 'restore_replay'",
      "RESET REPLICA ALL FOR CHANNEL 'restore_replay'"]);
    expect(h.printed).to.include('Replication channel \'restore_replay\' left by an interrupted replay: stopped and removed (with its password).');
    expect(r.channelRemoved).to.equal(true);
  });

  it('a channel restore_replay of another user is left alone', function () {
    const h = fakeHost({ status: { Innodb_redo_log_enabled: 'ON' }, sql: channelRow('repl') });
    const r = revertMember(h);
    expect(h.statements().filter((s) => /REPLICA/.test(s))).to.deep.equal([]);
    expect(r.channelRemoved).to.equal(false);
  });
});
