/** The conjunctive query model (atoms, terms, tuples) and its text parser. */
package io.flinkivm.core.query;
