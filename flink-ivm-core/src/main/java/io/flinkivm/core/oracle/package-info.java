/** The naive evaluator: re-evaluates a query from scratch over a K-database; the tests' oracle. */
package io.flinkivm.core.oracle;
