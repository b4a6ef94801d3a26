// SQL identifier quoting: every identifier in backticks, backticks inside doubled. Real dumps
// hold names with quotes, backticks and newlines.
function quoteIdentifier(name) {
  return '`' + String(name).replace(/`/g, '``') + '`';
}

// `schema`.`table`
function quoteTable(schema, table) {
  return quoteIdentifier(schema) + '.' + quoteIdentifier(table);
}

module.exports = { quoteIdentifier: quoteIdentifier, quoteTable: quoteTable };
