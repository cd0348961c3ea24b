/**
 * The fallback's delta joins over all atoms, written once against DeltaJoinStore, and the in-memory
 * stores.
 */
package io.flinkivm.core.engine.fallback;
