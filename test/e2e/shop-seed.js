// The "shop" schema the sample dump, the partial-import tests and the e2e scenarios use. Plain
// synchronous JS that runs inside real mysqlsh (require('./shop-seed.js') from a -f script) as
// well as under Node: it only needs a session with runSql. SQL that MySQL 8.4 and MariaDB both
// accept (no recursive CTE: MySQL caps its depth at 1000 by default).
var DIGITS = '(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 ' +
  'UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';

// Numbers 1..10^digits as "SELECT n FROM …" (n from 1).
function numbers(digits) {
  var from = [];
  var expr = [];
  for (var i = 0; i < digits; i++) {
    from.push(DIGITS + ' d' + i);
    expr.push('d' + i + '.d * ' + Math.pow(10, i));
  }
  return '(SELECT 1 + ' + expr.join(' + ') + ' AS n FROM ' + from.join(', ') + ')';
}

function q(name) { return '`' + String(name).replace(/`/g, '``') + '`'; }

// options.orders: number of orders (default 12000: 9+ chunks at bytesPerChunk 128k).
function seedShop(session, schema, options) {
  var o = options || {};
  var orders = o.orders || 12000;
  var s = q(schema);
  var statements = [
    'DROP DATABASE IF EXISTS ' + s,
    'CREATE DATABASE ' + s + ' DEFAULT CHARACTER SET utf8mb4',
    'CREATE TABLE ' + s + '.customers (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, ' +
      'email VARCHAR(200) NOT NULL, created_at DATETIME NOT NULL, UNIQUE KEY email (email))',
    'CREATE TABLE ' + s + '.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, ' +
      'ordered_at DATETIME NOT NULL, status ENUM(\'new\',\'paid\',\'shipped\') NOT NULL, total DECIMAL(10,2) NOT NULL, ' +
      'note VARCHAR(200) NULL, KEY customer_id (customer_id))',
    'CREATE TABLE ' + s + '.events (id INT NOT NULL, happened_at DATE NOT NULL, kind VARCHAR(20) NOT NULL, ' +
      'payload VARCHAR(200) NULL, PRIMARY KEY (id, happened_at)) PARTITION BY RANGE (TO_DAYS(happened_at)) (' +
      'PARTITION p2026_01 VALUES LESS THAN (TO_DAYS(\'2026-02-01\')), ' +
      'PARTITION p2026_02 VALUES LESS THAN (TO_DAYS(\'2026-03-01\')), ' +
      'PARTITION p2026_03 VALUES LESS THAN (TO_DAYS(\'2026-04-01\')), ' +
      'PARTITION pmax VALUES LESS THAN MAXVALUE)',
    'CREATE TABLE ' + s + '.audit_log (logged_at DATETIME NOT NULL, message VARCHAR(200) NOT NULL)',
    'CREATE TABLE ' + s + '.products (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL, thumbnail VARBINARY(16) NULL)',
    'CREATE TABLE ' + s + '.' + q('order items') + ' (order_id BIGINT NOT NULL, line INT NOT NULL, ' +
      'sku VARCHAR(20) NOT NULL, qty INT NOT NULL, PRIMARY KEY (order_id, line))',
    'INSERT INTO ' + s + '.customers (name, email, created_at) SELECT CONCAT(\'Customer \', n), ' +
      'CONCAT(\'c\', n, \'@example.com\'), \'2025-01-01 00:00:00\' + INTERVAL n HOUR FROM ' + numbers(3) + ' t ORDER BY n',
    'INSERT INTO ' + s + '.orders (customer_id, ordered_at, status, total, note) SELECT 1 + MOD(n * 7, 1000), ' +
      '\'2026-01-01 00:00:00\' + INTERVAL n MINUTE, ELT(1 + MOD(n, 3), \'new\', \'paid\', \'shipped\'), ' +
      'MOD(n * 37, 10000) / 100, IF(MOD(n, 5) = 0, NULL, CONCAT(\'tab\\there, line\\nbreak, backslash \\\\\\\\ #\', n)) ' +
      'FROM ' + numbers(5) + ' t WHERE n <= ' + orders + ' ORDER BY n',
    'INSERT INTO ' + s + '.events (id, happened_at, kind, payload) SELECT n, \'2026-01-01\' + INTERVAL MOD(n, 100) DAY, ' +
      'ELT(1 + MOD(n, 4), \'view\', \'click\', \'buy\', \'leave\'), CONCAT(\'event \', n) FROM ' + numbers(4) + ' t WHERE n <= 3000',
    'INSERT INTO ' + s + '.audit_log (logged_at, message) SELECT \'2026-01-01 00:00:00\' + INTERVAL n SECOND, ' +
      'CONCAT(\'audit entry \', n) FROM ' + numbers(4) + ' t WHERE n <= 2000',
    'INSERT INTO ' + s + '.products (id, sku, thumbnail) SELECT n, CONCAT(\'SKU-\', n), ' +
      'IF(MOD(n, 10) = 0, NULL, UNHEX(CONCAT(LPAD(HEX(n), 8, \'0\'), \'00FF0A0D\'))) FROM ' + numbers(2) + ' t',
    'INSERT INTO ' + s + '.' + q('order items') + ' (order_id, line, sku, qty) SELECT 1 + MOD(n, 500), 1 + FLOOR(n / 500), ' +
      'CONCAT(\'SKU-\', 1 + MOD(n, 100)), 1 + MOD(n, 4) FROM ' + numbers(3) + ' t',
  ];
  statements.forEach(function (sql) { session.runSql(sql); });
  return { schema: schema, orders: orders };
}

module.exports = { seedShop: seedShop };
