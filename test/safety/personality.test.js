'use strict';
// The stand-in's MySQL 8.4 personality and fault injection, as the safety tests rely on them.
const { expect } = require('chai');
const fx = require('./server-fixture');

function sqlIn(statements, opts) {
  const code = `var s = shell.getSession(); var out = [];
    ${JSON.stringify(statements)}.forEach(function (q) {
      try {
        out.push(s.runSql(q).fetchAll().map(function (x) {
          return Array.from({length: x.length}, function (_, i) { return x[i]; });
        }));
      } catch (e) { out.push('ERROR ' + e.code + ': ' + e.message); }
    }); out`;
  return fx.shellIn(fx.pluginConfigHome())(code, opts).value;
}

describe('stand-in: MySQL 8.4 personality and --fail-at', function () {
  beforeEach(() => fx.resetPersonality());
  after(() => fx.dropPersonalitySchema());

  it('off by default: the stand-in is plainly MariaDB', () => {
    const [alter, status] = sqlIn(['ALTER INSTANCE DISABLE INNODB REDO_LOG', "SHOW GLOBAL STATUS LIKE 'Innodb_redo_log_enabled'"]);
    expect(alter).to.match(/^ERROR 1064: .*syntax/);
    expect(status).to.deep.equal([]);
  });

  it('keeps the redo log state on the server, so separate processes agree', async () => {
    sqlIn(['ALTER INSTANCE DISABLE INNODB REDO_LOG'], { personality: 'mysql-8.4' });
    expect(await fx.redoLogOnServer()).to.equal('OFF');
    const [show, like, ps] = sqlIn(["SHOW GLOBAL STATUS LIKE 'Innodb_redo_log_enabled'", "SHOW STATUS LIKE 'innodb\\_redo%'",
      "SELECT VARIABLE_VALUE = 'OFF' AS off FROM performance_schema.global_status WHERE variable_name = 'Innodb_redo_log_enabled'"],
    { personality: 'mysql-8.4' });
    expect(show).to.deep.equal([['Innodb_redo_log_enabled', 'OFF']]);
    expect(like).to.deep.equal([['Innodb_redo_log_enabled', 'OFF']]);
    expect(ps).to.deep.equal([[1]]);
  });

  it('answers like 8.4 for the removed SLAVE statements and the privilege', () => {
    const [slave, grants, revoke, alter] = sqlIn(['SHOW SLAVE STATUS', 'SHOW GRANTS',
      "REVOKE INNODB_REDO_LOG_ENABLE ON *.* FROM 'root'@'127.0.0.1'", 'ALTER INSTANCE DISABLE INNODB REDO_LOG'],
    { personality: 'mysql-8.4' });
    expect(slave).to.match(/^ERROR 1064/);
    expect(grants.map((r) => r[0]).join('\n')).to.match(/^GRANT [A-Z_,]*INNODB_REDO_LOG_ENABLE[A-Z_,]* ON \*\.\* TO `root`@`127\.0\.0\.1`/m);
    expect(revoke).to.deep.equal([]);
    expect(alter).to.match(/^ERROR 1227: .*INNODB_REDO_LOG_ENABLE privilege/);
  });

  it('--fail-at fails the first matching statement only, like a server error', () => {
    const out = sqlIn(['SELECT 1', 'SELECT 2', 'SELECT 2'], { failAt: '^select 2$' });
    expect(out[0]).to.deep.equal([[1]]);
    expect(out[1]).to.match(/^ERROR 1105: .*fault injected by the stand-in: --fail-at=\^select 2\$/);
    expect(out[2]).to.deep.equal([[2]]);
  });
});
