/**
 * Classification of conjunctive queries (hierarchical, q-hierarchical, p-hierarchical, α-acyclic,
 * free-connex), each negative answer with a witness in the paper's terms; fractional edge covers and
 * minimum-width tree decompositions (fhtw).
 */
package io.flinkivm.core.analysis;
