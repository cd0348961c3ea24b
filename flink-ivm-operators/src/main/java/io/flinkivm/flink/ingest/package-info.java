/**
 * The ingest: checks and sequences input records into epochs, routes each insert's deltas to the view
 * trees and the sink, and runs the trees without state below the root; the row check of a changelog.
 */
package io.flinkivm.flink.ingest;
