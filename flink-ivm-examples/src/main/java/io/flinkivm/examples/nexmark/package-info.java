/**
 * The Nexmark benchmark's person, auction and bid tables, from a seeded generator in the spirit of
 * Nexmark's ({@link io.flinkivm.examples.nexmark.NexmarkTables}).
 */
package io.flinkivm.examples.nexmark;
