/**
 * Classification of conjunctive queries (hierarchical, q-hierarchical, p-hierarchical, α-acyclic,
 * free-connex), each negative answer with a witness in the paper's terms.
 */
package io.flinkivm.core.analysis;
