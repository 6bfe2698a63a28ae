package dev.compress.codec.search;

import org.apache.lucene.search.join.BitSetProducer;

/**
 * How a kNN search on the vectors of nested (child) documents treats their parents: the k nearest
 * are parents, each represented by its best child; with {@code expandChildren}, every child of those
 * parents is a hit too, with its own score, so that a join to the parents can list them all.
 *
 * @param parents the parent documents of the field's documents
 */
public record ParentJoin(BitSetProducer parents, boolean expandChildren) {}
