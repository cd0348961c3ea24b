/**
 * The joins: the Boolean join above the border (over root views, or over the bags of the cyclic plan)
 * and the fallback's delta joins over K, each written once against a store interface.
 */
package io.flinkivm.core.engine.join;
