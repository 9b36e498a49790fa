/**
 * Ownership of source partitions by a task's transactional ids (docs/design/sink-ownership.md): the seams through
 * which the ownership rules reach the target cluster ({@link SlotProducers}, {@link SlotProducer}, {@link Fencer},
 * {@link OwnershipLog}, {@link TransactionFacts}; each call answers with a value saying how it ended, so a scripted
 * model can give any answer at any step), and the plain decisions: {@link FenceSet} (rule F), {@link PartitionState}
 * (the states of 2.3 and rule O), {@link StageBudget} (2.4's stages within a put), {@link UnexplainedFences} (2.5);
 * {@link Ownership}, one slot's partitions through 2.4 and 2.5, driven by {@code put}, which keeps their states in
 * {@link SlotPartitions} and runs the stages through {@link OpeningStages}; and the real adapters {@link AdminFencer}
 * and {@link CompactedOwnershipLog}.
 */
package dev.quarantine.connect.sink.ownership;
