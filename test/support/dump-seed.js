'use strict';
// A realistic schema for the dump tests, seeded on the test server: an AUTO_INCREMENT `orders`
// table big enough for many 128k chunks (with gaps in its ids, a BLOB, a BIT, a generated column and text full of
// characters the TSV format must escape), a table partitioned by month, a keyless log, tables
// whose names need percent-encoding, a unique-key-only table, an empty table, a view, a trigger,
// routines and an event. Built with MariaDB's sequence engine (seq_1_to_N), so it is quick.

const q = (name) => '`' + String(name).replace(/`/g, '``') + '`';

// Table name → the columns that order its rows for comparisons.
const SEEDED_TABLES = {
  orders: ['id'],
  sales: ['id', 'sold_on'],
  audit_log: ['msg', 'at'],
  'order items': ['code'],
  "weird'name": ['a', 'b'],
  customers: ['email'],
  empty_table: ['id'],
};

function seedStatements(schema) {
  const s = q(schema);
  return [
    `CREATE DATABASE ${s} DEFAULT CHARACTER SET utf8mb4`,
    `CREATE TABLE ${s}.orders (
      id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
      customer VARCHAR(60) NOT NULL,
      amount DECIMAL(12,2),
      note TEXT,
      placed DATETIME(3) NOT NULL,
      shipped TIMESTAMP NULL,
      photo BLOB,
      flags BIT(8),
      rating DOUBLE,
      amount_cents BIGINT AS (amount * 100) VIRTUAL
    ) ENGINE=InnoDB`,
    // Every 7th note carries NUL, backspace, tab, newline, CR, Ctrl-Z and a backslash; every
    // 10th is NULL; every 3rd row has a photo (one of them empty), the rest NULL.
    `INSERT INTO ${s}.orders (customer, amount, note, placed, shipped, photo, flags, rating)
      SELECT CONCAT('customer ', seq % 977), seq * 1.25,
        CASE WHEN seq % 10 = 0 THEN NULL
             WHEN seq % 7 = 0 THEN CONCAT('a', CHAR(0), 'b', CHAR(8), 'c\\td\\ne\\rf', CHAR(26), 'g\\\\h Zoë ✓ ', seq)
             ELSE CONCAT('order note number ', seq, ' for the quarterly report') END,
        '2024-01-01 00:00:00.000' + INTERVAL seq MINUTE + INTERVAL (seq % 1000) * 1000 MICROSECOND,
        IF(seq % 5 = 0, NULL, '2024-02-01 10:00:00' + INTERVAL seq SECOND),
        CASE WHEN seq = 3 THEN '' WHEN seq % 3 = 0 THEN UNHEX(SHA2(seq, 256)) ELSE NULL END,
        seq % 256, seq / 3
      FROM ${s}.seq_1_to_12000`,
    `DELETE FROM ${s}.orders WHERE id BETWEEN 3001 AND 3600`,
    `CREATE TABLE ${s}.sales (
      id INT NOT NULL, sold_on DATE NOT NULL, qty INT, price DECIMAL(8,2),
      PRIMARY KEY (id, sold_on)
    ) PARTITION BY RANGE (TO_DAYS(sold_on)) (
      PARTITION p2024_01 VALUES LESS THAN (TO_DAYS('2024-02-01')),
      PARTITION p2024_02 VALUES LESS THAN (TO_DAYS('2024-03-01')),
      PARTITION p2024_03 VALUES LESS THAN (TO_DAYS('2024-04-01')),
      PARTITION pmax VALUES LESS THAN MAXVALUE)`,
    `INSERT INTO ${s}.sales SELECT seq, '2024-01-01' + INTERVAL (seq % 90) DAY, seq % 17, seq / 100 FROM ${s}.seq_1_to_30000`,
    `CREATE TABLE ${s}.audit_log (msg VARCHAR(200), at DATETIME, level ENUM('info','warn','error'))`,
    `INSERT INTO ${s}.audit_log SELECT CONCAT('event ', seq, ' happened to the audit trail'), '2024-03-01' + INTERVAL seq SECOND,
      ELT(1 + seq % 3, 'info', 'warn', 'error') FROM ${s}.seq_1_to_4000`,
    `CREATE TABLE ${s}.${q('order items')} (code VARCHAR(20) NOT NULL PRIMARY KEY, order_id INT, qty INT, label VARCHAR(100))`,
    `INSERT INTO ${s}.${q('order items')} SELECT CONCAT('item-', LPAD(seq, 6, '0')), seq % 5000, seq % 9,
      CONCAT('Label "', seq, '" it''s ünïcode') FROM ${s}.seq_1_to_4000`,
    `CREATE TABLE ${s}.${q("weird'name")} (a INT NOT NULL, b VARCHAR(10) NOT NULL, c JSON, PRIMARY KEY (a, b))`,
    `INSERT INTO ${s}.${q("weird'name")} VALUES (1, 'x', '{"k": [1, 2]}'), (1, 'y', NULL), (2, 'x', '"tab\\\\there"')`,
    `CREATE TABLE ${s}.customers (email VARCHAR(100) NOT NULL, name VARCHAR(60), UNIQUE KEY uk_email (email))`,
    `INSERT INTO ${s}.customers SELECT CONCAT('user', seq, '@example.com'), CONCAT('User ', seq) FROM ${s}.seq_1_to_500`,
    `CREATE TABLE ${s}.empty_table (id INT PRIMARY KEY, v VARCHAR(10))`,
    `CREATE VIEW ${s}.${q('recent orders')} AS SELECT id, customer, amount FROM ${s}.orders WHERE placed >= '2024-01-05'`,
    `CREATE TRIGGER ${s}.orders_bi BEFORE INSERT ON ${s}.orders FOR EACH ROW SET NEW.customer = TRIM(NEW.customer)`,
    `CREATE FUNCTION ${s}.order_total(n INT) RETURNS DECIMAL(12,2) DETERMINISTIC RETURN n * 1.25`,
    `CREATE PROCEDURE ${s}.purge_log(IN keep_days INT) BEGIN DELETE FROM audit_log WHERE at < NOW() - INTERVAL keep_days DAY; END`,
    `CREATE EVENT ${s}.nightly_purge ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00' DISABLE DO CALL purge_log(30)`,
  ];
}

// session: a ClassicSession (execute(sql)).
function seedShop(session, schema) {
  for (const sql of seedStatements(schema)) session.execute(sql);
}

module.exports = { seedShop, SEEDED_TABLES, quoteName: q };
