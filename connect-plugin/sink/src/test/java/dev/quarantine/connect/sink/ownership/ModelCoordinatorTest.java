package dev.quarantine.connect.sink.ownership;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.Fencer.Fence;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Answer;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Error;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.State;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Version;
import dev.quarantine.connect.sink.ownership.ModelPartition.Fate;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.ownership.SlotProducer.Init;
import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;
import dev.quarantine.sandbox.MovableClock;
import dev.quarantine.txn.TxnSendOption;

/**
 * Each transition of the model against the Kafka method it models, read in apache/kafka at {@code 1eb7644349c}
 * ({@code core/.../transaction/TransactionCoordinator.scala}, {@code TransactionMetadata.scala},
 * {@code clients/.../admin/internals/FenceProducersHandler.java}, {@code storage/.../ProducerStateManager.java}) with
 * the later change KAFKA-19367 (apache/kafka#19910: a fence's abort bumps the epoch once) where named.
 */
class ModelCoordinatorTest {

    private static final String T0 = "copy:task#0.0";
    private static final TopicPartition X = new TopicPartition("copy.orders", 0);
    private static final TopicPartition Y = new TopicPartition("copy.orders", 1);
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final MovableClock clock = new MovableClock();

    @Test
    void aNewIdGetsAProducerIdAtEpochZero() {
        // handleInitProducerId: no metadata -> new TransactionMetadata at epoch -1; prepareIncrementProducerEpoch -> 0
        ModelCoordinator model = model(Version.V2);

        Answer answer = model.initProducerId(T0, Optional.empty());

        assertThat(answer.error()).isEqualTo(Error.NONE);
        assertThat(answer.producer().epoch()).isZero();
        assertThat(model.state(T0)).isEqualTo(State.EMPTY);
    }

    @Test
    void anInitWithoutAnExpectedEpochBumpsAndForgetsTheLastEpoch() {
        // prepareIncrementProducerEpoch(None): (bumpedEpoch, NO_PRODUCER_EPOCH)
        ModelCoordinator model = model(Version.V1);
        ProducerEpoch first = model.initProducerId(T0, Optional.empty()).producer();

        ProducerEpoch second = model.initProducerId(T0, Optional.empty()).producer();

        assertThat(second).isEqualTo(new ProducerEpoch(first.producerId(), (short) 1));
        assertThat(model.lastEpoch(T0)).isEqualTo((short) -1);
    }

    @Test
    void anInitNamingAnEpochIsAcceptedOnlyForTheCurrentOrTheLastOne() {
        // prepareIncrementProducerEpoch(Some): current -> bump keeping it as last; last -> a retry, no bump;
        // anything else -> PRODUCER_FENCED
        ModelCoordinator model = model(Version.V1);
        ProducerEpoch e0 = model.initProducerId(T0, Optional.empty()).producer();

        ProducerEpoch e1 = model.initProducerId(T0, Optional.of(e0)).producer();
        assertThat(e1.epoch()).isEqualTo((short) 1);
        assertThat(model.lastEpoch(T0)).isEqualTo((short) 0);

        assertThat(model.initProducerId(T0, Optional.of(e0))).isEqualTo(new Answer(Error.NONE, e1));
        model.initProducerId(T0, Optional.empty());
        assertThat(model.initProducerId(T0, Optional.of(e1)).error()).isEqualTo(Error.PRODUCER_FENCED);
    }

    @Test
    void anInitMeetingAnOngoingTransactionAbortsItAndAsksForARetryWhichBumpsAgain() {
        // prepareInitProducerIdTransit, Ongoing: prepareFenceProducerEpoch, endTransaction(ABORT,
        // isFromClient = false), CONCURRENT_TRANSACTIONS "so that the epoch is bumped a second time"
        ModelCoordinator model = model(Version.V1);
        ModelProducer zombie = sentA(model);

        assertThat(initError(model)).isEqualTo(Error.CONCURRENT_TRANSACTIONS);
        assertThat(model.state(T0)).isEqualTo(State.COMPLETE_ABORT);
        assertThat(model.partition(X).fate(0)).isEqualTo(Fate.ABORTED);
        assertThat(model.producer(T0).epoch()).isEqualTo((short) 1);

        assertThat(model.initProducerId(T0, Optional.empty()).producer().epoch()).isEqualTo((short) 2);
        assertThat(zombie.commit()).isInstanceOf(End.Fenced.class);
    }

    @Test
    void anInitMeetingAPreparedCommitWaitsForItsMarkers() {
        // prepareInitProducerIdTransit: PrepareAbort | PrepareCommit -> CONCURRENT_TRANSACTIONS (row 2)
        ModelCoordinator model = model(Version.V1);
        model.holdMarkers(true);
        ModelProducer holder = sentA(model);
        assertThat(holder.commit()).isInstanceOf(End.Done.class);

        assertThat(initError(model)).isEqualTo(Error.CONCURRENT_TRANSACTIONS);
        model.writeMarkers(T0);

        assertThat(initError(model)).isEqualTo(Error.NONE);
        assertThat(model.partition(X).readCommitted()).containsExactly("a");
    }

    @Test
    void theCommitIsAnsweredBeforeItsMarkersAreWritten() {
        // endTransaction: sendTxnMarkersCallback answers the client, then addTxnMarkersToSend
        ModelCoordinator model = model(Version.V2);
        model.holdMarkers(true);
        ModelProducer holder = sentA(model);

        assertThat(holder.commit()).isInstanceOf(End.Done.class);
        assertThat(model.state(T0)).isEqualTo(State.PREPARE_COMMIT);
        assertThat(model.partition(X).readCommitted()).isEmpty();
        assertThat(model.partition(X).lastStableOffset()).isZero();

        model.writeMarkers(T0);
        assertThat(model.state(T0)).isEqualTo(State.COMPLETE_COMMIT);
        assertThat(model.partition(X).readCommitted()).containsExactly("a");
    }

    @Test
    void version1EndsOnlyWithTheCurrentEpochAndAcceptsARetryOfACompletedCommit() {
        // endTransaction, version 1: producerEpoch == txnMetadata.producerEpoch; CompleteCommit + COMMIT -> NONE
        ModelCoordinator model = model(Version.V1);
        ModelProducer holder = sentA(model);
        ProducerEpoch epoch = holder.current();

        assertThat(model.endTxn(T0, epoch, true)).isEqualTo(new Answer(Error.NONE, epoch));
        assertThat(model.endTxn(T0, epoch, true)).isEqualTo(new Answer(Error.NONE, epoch));
        assertThat(model.endTxn(T0, epoch, false).error()).isEqualTo(Error.INVALID_TXN_STATE);
        model.initProducerId(T0, Optional.empty());
        assertThat(model.endTxn(T0, epoch, true).error()).isEqualTo(Error.PRODUCER_FENCED);
    }

    @Test
    void version2BumpsAtEveryEndAndTakesTheEpochBelowOnlyAsARetry() {
        // prepareAbortOrCommit with supportsEpochBump; endTxnEpochBumped; Ongoing and Empty need equality
        ModelCoordinator model = model(Version.V2);
        ModelProducer holder = sentA(model);
        ProducerEpoch before = holder.current();

        assertThat(holder.commit()).isInstanceOf(End.Done.class);
        assertThat(holder.current().epoch()).isEqualTo((short) (before.epoch() + 1));
        assertThat(model.endTxn(T0, before, true)).isEqualTo(new Answer(Error.NONE, holder.current()));
        assertThat(model.endTxn(T0, before, false).error()).isEqualTo(Error.INVALID_TXN_STATE);
        assertThat(model.endTxn(T0, new ProducerEpoch(before.producerId(), (short) (before.epoch() - 1)), true)
                .error()).isEqualTo(Error.PRODUCER_FENCED);
    }

    @Test
    void anEndOfATransactionWithoutASendIsCompletedByTheClientAloneUnderBothVersions() {
        // clients TransactionManager.nextRequest: "isEndTxn() && !transactionStarted" completes the EndTxn locally;
        // transactionStarted is set by maybeAddPartition (version 2) or AddPartitionsToTxn's success (version 1)
        for (Version version : Version.values()) {
            ModelCoordinator model = model(version);
            ModelProducer holder = producer(model);
            ProducerEpoch initialised = holder.current();

            holder.begin();
            assertThat(holder.abort()).as("abort without a send, %s", version).isInstanceOf(End.Done.class);
            holder.begin();
            assertThat(holder.commit()).as("commit without a send, %s", version).isInstanceOf(End.Done.class);
            assertThat(model.state(T0)).isEqualTo(State.EMPTY);
            assertThat(model.producer(T0)).isEqualTo(initialised);

            holder.begin();
            send(holder, X, "a");
            assertThat(holder.commit()).isInstanceOf(End.Done.class);
            ProducerEpoch committed = model.producer(T0);
            holder.begin();
            assertThat(holder.abort()).as("abort without a send after a commit, %s", version)
                    .isInstanceOf(End.Done.class);
            assertThat(model.state(T0)).isEqualTo(State.COMPLETE_COMMIT);
            assertThat(model.producer(T0)).isEqualTo(committed);
            assertThat(model.partition(X).readCommitted()).containsExactly("a");
        }
    }

    @Test
    void version2AcceptsAnAbortAtTheCurrentEpochFromEmptyAndCompleteStatesAndBumps() {
        // 4.4 endTransaction, version 2: Complete states take the current epoch as valid; an ABORT that is not a
        // retry in Empty, CompleteCommit or CompleteAbort is generateTxnTransitMetadataForTxnCompletion(PrepareAbort,
        // noPartitionAdded = true): prepareAbortOrCommit bumps, no markers, CompleteAbort; COMMIT there, or an ABORT
        // retrying a commit, is INVALID_TXN_STATE
        ModelCoordinator model = model(Version.V2);
        ProducerEpoch e0 = model.initProducerId(T0, Optional.empty()).producer();

        Answer fromEmpty = model.endTxn(T0, e0, false);
        assertThat(fromEmpty).isEqualTo(new Answer(Error.NONE, bumped(e0, 1)));
        assertThat(model.state(T0)).isEqualTo(State.COMPLETE_ABORT);
        assertThat(model.endTxn(T0, e0, false)).as("a retry of that abort")
                .isEqualTo(new Answer(Error.NONE, bumped(e0, 1)));
        assertThat(model.endTxn(T0, bumped(e0, 1), false)).as("a new abort from CompleteAbort")
                .isEqualTo(new Answer(Error.NONE, bumped(e0, 2)));
        assertThat(model.endTxn(T0, bumped(e0, 2), true).error()).as("a commit from CompleteAbort")
                .isEqualTo(Error.INVALID_TXN_STATE);

        ModelProducer holder = new ModelProducer(model, T0);
        holder.init();
        holder.begin();
        send(holder, X, "a");
        assertThat(holder.commit()).isInstanceOf(End.Done.class);
        ProducerEpoch committed = holder.current();
        assertThat(model.endTxn(T0, committed, true).error()).as("a commit at the current epoch from CompleteCommit")
                .isEqualTo(Error.INVALID_TXN_STATE);
        assertThat(model.endTxn(T0, committed, false)).as("an abort at the current epoch from CompleteCommit")
                .isEqualTo(new Answer(Error.NONE, bumped(committed, 1)));
        assertThat(model.state(T0)).isEqualTo(State.COMPLETE_ABORT);
        assertThat(model.partition(X).readCommitted()).containsExactly("a");
    }

    @Test
    void version1RefusesAnAbortWithNothingOpen() {
        // endTransaction with version 1 (endTransactionWithTV1): Empty -> INVALID_TXN_STATE; CompleteCommit takes
        // only a COMMIT (a retry)
        ModelCoordinator model = model(Version.V1);
        ProducerEpoch e0 = model.initProducerId(T0, Optional.empty()).producer();
        assertThat(model.endTxn(T0, e0, false).error()).isEqualTo(Error.INVALID_TXN_STATE);

        ModelProducer holder = sentA(model);
        assertThat(holder.commit()).isInstanceOf(End.Done.class);
        assertThat(model.endTxn(T0, holder.current(), false).error()).isEqualTo(Error.INVALID_TXN_STATE);
        assertThat(model.producer(T0)).isEqualTo(holder.current());
    }

    @Test
    void aSendWhileThePreviousTransactionsMarkersArePendingWaitsAndIsRetriedAfterThem() {
        // handleAddPartitionsToTransaction: PrepareCommit | PrepareAbort -> CONCURRENT_TRANSACTIONS; the client
        // retries it (AddPartitionsToTxnHandler re-enqueues; version 2: the leader's add answers the produce with it,
        // a retriable error), so the send waits instead of failing, and the commit cannot end before it is sent
        for (Version version : Version.values()) {
            ModelCoordinator model = model(version);
            model.holdMarkers(true);
            ModelProducer holder = sentA(model);
            assertThat(holder.commit()).isInstanceOf(End.Done.class);
            assertThat(model.state(T0)).isEqualTo(State.PREPARE_COMMIT);

            holder.begin();
            Sent waiting = holder.send(record(X, "b"), TxnSendOption.IGNORE_SEND_ERRORS);
            Sent behind = holder.send(record(Y, "c"), TxnSendOption.IGNORE_SEND_ERRORS);
            assertThat(waiting).as("%s", version).isInstanceOf(Sent.Accepted.class);
            assertThat(((Sent.Accepted) waiting).metadata()).isNotDone();
            assertThat(((Sent.Accepted) behind).metadata()).isNotDone();
            assertThat(holder.commit()).as("a commit while its sends wait, %s", version)
                    .isInstanceOf(End.Transient.class);

            model.writeMarkers(T0);
            assertThat(((Sent.Accepted) waiting).metadata()).succeedsWithin(Duration.ZERO)
                    .extracting(RecordMetadata::offset).isEqualTo(1L);
            assertThat(((Sent.Accepted) behind).metadata()).succeedsWithin(Duration.ZERO)
                    .extracting(RecordMetadata::offset).isEqualTo(0L);
            assertThat(holder.commit()).isInstanceOf(End.Done.class);
            model.writeMarkers(T0);
            assertThat(model.partition(X).readCommitted()).as("%s", version).containsExactly("a", "b");
            assertThat(model.partition(Y).readCommitted()).containsExactly("c");
        }
    }

    @Test
    void addingAPartitionNeedsTheCurrentEpochExactly() {
        // handleAddPartitionsToTransaction: producerEpoch != txnMetadata.producerEpoch -> PRODUCER_FENCED
        ModelCoordinator model = model(Version.V1);
        ModelProducer zombie = producer(model);
        model.initProducerId(T0, Optional.empty());
        zombie.begin();

        assertThat(zombie.send(record(X, "a"), TxnSendOption.IGNORE_SEND_ERRORS)).isInstanceOf(Sent.Failed.class);
        assertThat(model.partition(X).highWatermark()).isZero();
    }

    @Test
    void aFencedZombiesRetriedAbortIsAcceptedUntilTheFencesRetryBumpsAgain() {
        // row 23, review finding 9 (version 2, after KAFKA-19367): the fence's abort leaves CompleteAbort at e + 1,
        // where endTxnEpochBumped accepts the zombie's EndTxn(ABORT) at e and hands back e + 1
        ModelCoordinator model = model(Version.V2);
        ModelProducer zombie = sentA(model);
        short e = zombie.current().epoch();

        assertThat(initError(model)).isEqualTo(Error.CONCURRENT_TRANSACTIONS);
        assertThat(zombie.abort()).isInstanceOf(End.Done.class);
        assertThat(zombie.current().epoch()).isEqualTo((short) (e + 1));

        zombie.begin();
        send(zombie, Y, "b");
        assertThat(initError(model)).isEqualTo(Error.CONCURRENT_TRANSACTIONS);
        assertThat(model.partition(Y).fate(0)).isEqualTo(Fate.ABORTED);
        Answer fenced = model.initProducerId(T0, Optional.empty());

        assertThat(fenced.producer().epoch()).isEqualTo((short) (e + 3));
        assertThat(zombie.commit()).isInstanceOf(End.Fenced.class);
        assertThat(model.partition(X).readCommitted()).isEmpty();
        assertThat(model.partition(Y).readCommitted()).isEmpty();
    }

    @Test
    void aFenceReturnsOnlyAfterItsOwnBumpAndTheZombieCannotCommitThen() {
        // FenceProducersHandler: InitProducerId without id or epoch, CONCURRENT_TRANSACTIONS retried (row 1, K2)
        ModelCoordinator model = model(Version.V1);
        ModelProducer zombie = sentA(model);

        Fence fence = new ModelFencer(model).fence(Set.of(T0), BOUND);

        assertThat(fence).isEqualTo(new Fence.Done(Map.of(T0, model.producer(T0))));
        assertThat(model.producer(T0).epoch()).isEqualTo((short) 2);
        assertThat(zombie.commit()).isInstanceOf(End.Fenced.class);
        assertThat(model.partition(X).readCommitted()).isEmpty();
    }

    @Test
    void aFenceMeetingMarkersThatDoNotComeIsTransient() {
        // FenceProducersHandler retries CONCURRENT_TRANSACTIONS until its timeout: the model answers Transient
        ModelCoordinator model = model(Version.V1);
        model.holdMarkers(true);
        ModelProducer holder = sentA(model);
        holder.commit();

        assertThat(new ModelFencer(model).fence(Set.of(T0), BOUND)).isInstanceOf(Fence.Transient.class);
        model.writeMarkers(T0);
        assertThat(new ModelFencer(model).fence(Set.of(T0), BOUND)).isInstanceOf(Fence.Done.class);
        assertThat(model.partition(X).readCommitted()).containsExactly("a");
    }

    @Test
    void theCoordinatorAbortsATransactionPastItsTimeoutAndAVersion1ProducerIsFenced() {
        // abortTimedOutTransactions: prepareFenceProducerEpoch, then endTransactionWithTV1(ABORT, isFromClient =
        // false), which sets the fence's epoch and forgets the last one; the producer's COMMIT at the epoch below
        // fails the version 1 check (producerEpoch == txnMetadata.producerEpoch): PRODUCER_FENCED
        ModelCoordinator model = model(Version.V1);
        ModelProducer holder = timedOut(model);

        assertThat(model.state(T0)).isEqualTo(State.COMPLETE_ABORT);
        assertThat(model.partition(X).fate(0)).isEqualTo(Fate.ABORTED);
        assertThat(model.lastEpoch(T0)).isEqualTo((short) -1);
        assertThat(holder.commit()).isInstanceOf(End.Fenced.class);
    }

    @Test
    void aVersion2CommitAfterTheTimeoutAbortIsRefusedAsAnInvalidStateNotFenced() {
        // 4.4 (read in the 4.4.0 jar), version 2: the abort's prepareAbortOrCommit bumps once from e and keeps e as
        // the last epoch; the producer's COMMIT at e meets CompleteAbort at e + 1, which endTransaction takes for a
        // retry (retryOnEpochBump), and CompleteAbort answers a COMMIT with INVALID_TXN_STATE; the client's
        // EndTxnHandler makes that fatal (InvalidTxnStateException), not PRODUCER_FENCED: harness row 33. The seam
        // answers it End.Fenced with that cause, as TxnSendSlotProducer does (SendErrors.isFencing). Its ABORT at e
        // is a retry of the abort: NONE with e + 1
        ModelCoordinator model = model(Version.V2);
        ModelProducer holder = timedOut(model);
        short e = holder.current().epoch();

        assertThat(model.partition(X).fate(0)).isEqualTo(Fate.ABORTED);
        assertThat(model.producer(T0).epoch()).isEqualTo((short) (e + 1));
        assertThat(model.lastEpoch(T0)).isEqualTo(e);
        assertThat(model.endTxn(T0, new ProducerEpoch(holder.current().producerId(), e), true).error())
                .isEqualTo(Error.INVALID_TXN_STATE);
        assertThat(holder.commit()).isInstanceOfSatisfying(End.Fenced.class,
                refused -> assertThat(refused.cause()).isInstanceOf(InvalidTxnStateException.class));
        assertThat(holder.abort()).isInstanceOf(End.Done.class);
        assertThat(holder.current().epoch()).isEqualTo((short) (e + 1));
        assertThat(model.partition(X).readCommitted()).isEmpty();
    }

    private ModelProducer timedOut(ModelCoordinator model) {
        ModelProducer holder = sentA(model);
        clock.advance(Duration.ofSeconds(59));
        model.abortTimedOut();
        assertThat(model.state(T0)).isEqualTo(State.ONGOING);
        clock.advance(Duration.ofSeconds(1));
        model.abortTimedOut();
        return holder;
    }

    @Test
    void anInitAtTheEpochLimitRotatesTheProducerId() {
        // prepareInitProducerIdTransit: isProducerEpochExhausted (epoch >= limit - 1) -> prepareProducerIdRotation
        ModelCoordinator model = epochLimitOf5(Version.V1);
        ProducerEpoch first = firstOfFiveInits(model);
        assertThat(model.producer(T0)).isEqualTo(new ProducerEpoch(first.producerId(), (short) 4));

        ProducerEpoch rotated = model.initProducerId(T0, Optional.empty()).producer();

        assertThat(rotated.producerId()).isNotEqualTo(first.producerId());
        assertThat(rotated.epoch()).isZero();
        assertThat(model.transactionalIdOf(first.producerId())).contains(T0);
    }

    @Test
    void version2EndingAtTheEpochLimitHandsOutANewProducerIdAndAcceptsItsRetry() {
        // endTransaction: a new producer id when the bump would exhaust the epoch; retryOnOverflow on a retry;
        // row 17: ownership names ids, so the id's next producer goes on
        ModelCoordinator model = epochLimitOf5(Version.V2);
        ModelProducer holder = producer(model);
        for (int i = 0; i < 4; i++) {
            holder.begin();
            send(holder, X, "r" + i);
            assertThat(holder.commit()).isInstanceOf(End.Done.class);
        }
        ProducerEpoch beforeRotation = new ProducerEpoch(holder.current().producerId(), (short) 4);
        assertThat(holder.current()).isEqualTo(beforeRotation);
        holder.begin();
        send(holder, X, "r4");

        assertThat(holder.commit()).isInstanceOf(End.Done.class);

        assertThat(holder.current().producerId()).isNotEqualTo(beforeRotation.producerId());
        assertThat(holder.current().epoch()).isZero();
        assertThat(model.endTxn(T0, beforeRotation, true).error()).isEqualTo(Error.NONE);
        assertThat(model.partition(X).readCommitted()).containsExactly("r0", "r1", "r2", "r3", "r4");
    }

    @Test
    void aSkippedMarkerLeavesTheRangeOpenAndTheIdsNextAbortTakesItWhole() {
        // ProducerStateManager: one open range per producer id (ongoingTxns by first offset, completeTxn);
        // the basis of rule V's loss (design 2.7.1, row 30)
        ModelCoordinator model = model(Version.V2);
        ModelProducer holder = producer(model);
        holder.begin();
        send(holder, X, "c");
        send(holder, Y, "c");
        model.skipMarkers(X, holder.current().producerId());
        assertThat(holder.commit()).isInstanceOf(End.Done.class);

        assertThat(model.state(T0)).isEqualTo(State.COMPLETE_COMMIT);
        assertThat(model.partition(Y).readCommitted()).containsExactly("c");
        assertThat(model.partition(X).readCommitted()).isEmpty();
        assertThat(model.partition(X).open()).hasSize(1);

        holder.begin();
        send(holder, X, "t");
        new ModelFencer(model).fence(Set.of(T0), BOUND);

        assertThat(model.partition(X).fate(0)).isEqualTo(Fate.ABORTED);
        assertThat(model.partition(X).fate(1)).isEqualTo(Fate.ABORTED);
        assertThat(model.partition(X).open()).isEmpty();
    }

    @Test
    void aRetryOfARotationIsAcceptedWithThePreviousProducerIdAndItsExhaustedEpoch() {
        // isValidProducerId: producerId == previousProducerId && isEpochExhausted(epoch) (design K3's exception)
        ModelCoordinator model = epochLimitOf5(Version.V1);
        ProducerEpoch first = firstOfFiveInits(model);
        ProducerEpoch exhausted = model.producer(T0);
        model.initProducerId(T0, Optional.of(exhausted));

        assertThat(model.initProducerId(T0, Optional.of(exhausted)).error()).isEqualTo(Error.NONE);
        assertThat(model.initProducerId(T0, Optional.of(new ProducerEpoch(first.producerId(), (short) 1))).error())
                .isEqualTo(Error.PRODUCER_FENCED);
    }

    private static ProducerEpoch bumped(ProducerEpoch producer, int by) {
        return new ProducerEpoch(producer.producerId(), (short) (producer.epoch() + by));
    }

    private ModelCoordinator model(Version version) {
        return new ModelCoordinator(version, Short.MAX_VALUE, clock, Duration.ofMinutes(1));
    }

    /** The model with its epoch limit at 5 (Kafka's is {@code Short.MAX_VALUE}). */
    private ModelCoordinator epochLimitOf5(Version version) {
        return new ModelCoordinator(version, 5, clock, Duration.ofMinutes(1));
    }

    /** The error of an init of {@code T0} naming no epoch. */
    private static Error initError(ModelCoordinator model) {
        return model.initProducerId(T0, Optional.empty()).error();
    }

    /** Initialises {@code T0} five times, naming no epoch; the first init's producer. */
    private static ProducerEpoch firstOfFiveInits(ModelCoordinator model) {
        ProducerEpoch first = model.initProducerId(T0, Optional.empty()).producer();
        for (int i = 0; i < 4; i++) {
            model.initProducerId(T0, Optional.empty());
        }
        return first;
    }

    /** {@code T0}'s producer, initialised, with a transaction open that has sent {@code "a"} to {@code X}. */
    private static ModelProducer sentA(ModelCoordinator model) {
        ModelProducer producer = producer(model);
        producer.begin();
        send(producer, X, "a");
        return producer;
    }

    private static ModelProducer producer(ModelCoordinator model) {
        ModelProducer producer = new ModelProducer(model, T0);
        assertThat(producer.init()).isInstanceOf(Init.Done.class);
        return producer;
    }

    private static void send(ModelProducer producer, TopicPartition partition, String value) {
        assertThat(producer.send(record(partition, value), TxnSendOption.IGNORE_SEND_ERRORS))
                .isInstanceOf(Sent.Accepted.class);
    }

    private static ProducerRecord<byte[], byte[]> record(TopicPartition partition, String value) {
        return new ProducerRecord<>(partition.topic(), partition.partition(), null, value.getBytes(UTF_8));
    }
}
