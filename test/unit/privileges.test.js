'use strict';
// Privileges a load needs (lib/server/privileges.js), from scripted SHOW GRANTS answers.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const privileges = require('../../lib/server/privileges.js');

const DROPS = [{ kind: 'TABLE', schema: 'shop', name: 'orders' }, { kind: 'TRIGGER', schema: 'shop', name: 'orders_ai' }];

describe('privileges (lib/server/privileges.js)', function () {
  it('parses SHOW GRANTS lines: privileges, schema, table, quoted names and roles', function () {
    expect(privileges.parseGrants([
      'GRANT SELECT, DROP ON `shop`.* TO `u`@`%`',
      'GRANT UPDATE ON `sh``op`.`t` TO `u`@`%`',
      'GRANT SYSTEM_VARIABLES_ADMIN,INNODB_REDO_LOG_ENABLE ON *.* TO `u`@`%`',
      'GRANT `loader`@`%` TO `u`@`%`',
      'REVOKE nothing',
    ])).to.deep.equal([
      { privs: ['SELECT', 'DROP'], schema: 'shop', table: '*' },
      { privs: ['UPDATE'], schema: 'sh`op', table: 't' },
      { privs: ['SYSTEM_VARIABLES_ADMIN', 'INNODB_REDO_LOG_ENABLE'], schema: '*', table: '*' },
      { isRole: true, privs: [] },
    ]);
  });

  it('an account with ALL on *.* may do every step', function () {
    const host = fakeHost();
    expect(privileges.checkLoadPrivileges(host, { tune: true, redo: true, drops: DROPS, binlogSwitch: true }, false)).to.deep.equal([]);
  });

  it('binlogs: the replay needs BINLOG (BINLOG_ADMIN or REPLICATION_APPLIER) and gtid_next; REPLICATION_APPLIER gives both', function () {
    const refused = (grants) => {
      const host = fakeHost({ grants, sql: [['SELECT CURRENT_USER()', { rows: [{ u: 'u@%' }] }]] });
      try { privileges.checkLoadPrivileges(host, { replay: true }, false); } catch (e) { return e.message; }
      return null;
    };
    const none = refused(['GRANT SELECT, INSERT ON *.* TO `u`@`%`']);
    expect(none).to.match(/REPLICATION_APPLIER \(binlogs: the replay sends row events as BINLOG statements\)/);
    expect(none).to.match(/SESSION_VARIABLES_ADMIN \(binlogs: the replay keeps the source's GTIDs with SET gtid_next\)/);
    expect(refused(['GRANT BINLOG_ADMIN ON *.* TO `u`@`%`'])).to.match(/SESSION_VARIABLES_ADMIN/).and.not.match(/REPLICATION_APPLIER/);
    expect(refused(['GRANT REPLICATION_APPLIER ON *.* TO `u`@`%`'])).to.equal(null);
    expect(refused(['GRANT BINLOG_ADMIN,SESSION_VARIABLES_ADMIN ON *.* TO `u`@`%`'])).to.equal(null);
  });

  it('refuses, before anything changes, with every missing privilege and the GRANT statements', function () {
    const host = fakeHost({ grants: ['GRANT SELECT, INSERT ON `shop`.* TO `u`@`%`'], sql: [['SELECT CURRENT_USER()', { rows: [{ u: 'u@%' }] }]] });
    let message = null;
    try { privileges.checkLoadPrivileges(host, { tune: true, redo: false, drops: DROPS, updates: [{ schema: 'shop', table: 'customers' }] }, false); } catch (e) { message = e.message; }
    expect(message).to.match(/SYSTEM_VARIABLES_ADMIN \(tune: true/);
    expect(message).to.match(/DROP \(dropExisting drops table `shop`.`orders`\)/);
    expect(message).to.match(/TRIGGER \(dropExisting drops trigger/);
    expect(message).to.match(/UPDATE \(mask changes rows of `shop`.`customers`\)/);
    expect(message).to.match(/GRANT SYSTEM_VARIABLES_ADMIN ON \*\.\* TO 'u'@'%';/);
    expect(message).to.match(/Nothing was dropped or changed/);
    expect(host.statements().filter((s) => !/^(SHOW GRANTS|SELECT CURRENT_USER)/.test(s))).to.deep.equal([]);
  });

  it('privileges held only through a role are not counted: force goes ahead with a warning', function () {
    const host = fakeHost({ grants: ['GRANT USAGE ON *.* TO `u`@`%`', 'GRANT `loader`@`%` TO `u`@`%`'] });
    expect(() => privileges.checkLoadPrivileges(host, { tune: true }, false)).to.throw(/through roles are not counted.*force: true/);
    const missing = privileges.checkLoadPrivileges(host, { tune: true }, true);
    expect(missing.map((m) => m.priv)).to.deep.equal(['SYSTEM_VARIABLES_ADMIN']);
    expect(host.warned.join('\n')).to.match(/^force: going ahead/);
  });

  it('SHOW GRANTS failing is no pass: refused unless force', function () {
    const host = fakeHost({ sql: [['SHOW GRANTS', () => { const e = new Error('denied'); e.isSqlError = true; e.code = 1142; throw e; }]] });
    expect(() => privileges.checkLoadPrivileges(host, { drops: DROPS }, false)).to.throw(/Cannot check this account's privileges before dropping 2 object\(s\): SHOW GRANTS failed \(denied\)/);
    expect(privileges.checkLoadPrivileges(host, { drops: DROPS }, true)).to.deep.equal([]);
  });

  it('a wildcard schema grant (shop%) is not guessed to cover shop', function () {
    const list = privileges.parseGrants(['GRANT DROP ON `shop%`.* TO `u`@`%`', 'GRANT DROP ON `hr`.`people` TO `u`@`%`']);
    expect(privileges.holds(list, ['DROP'], 'shop', 'orders')).to.equal(false);
    expect(privileges.holds(list, ['DROP'], 'hr', 'people')).to.equal(true);
    expect(privileges.holds(list, ['DROP'], 'hr', 'other')).to.equal(false);
  });
});
