package dev.quarantine.streams.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.errors.StreamsNotStartedException;
import org.apache.kafka.streams.errors.StreamsStoppedException;
import org.apache.kafka.streams.errors.UnknownStateStoreException;
import org.apache.kafka.streams.query.FailureReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ClassifierTest {

    private static final String STORE = "counts";
    private static final InvalidStateStoreException MAY_HAVE_MIGRATED =
            new InvalidStateStoreException("The state store, counts, may have migrated to another instance.");

    private final FakeStreams streams = new FakeStreams();
    private final Classifier classifier = new Classifier(streams, FakeStreams.SELF);

    @Test
    void anErrorWhileRebalancingIsRetryableWhenThisInstanceHostsTheStore() {
        streams.state(KafkaStreams.State.REBALANCING).hosts(FakeStreams.SELF, STORE, 0, 1);
        InvalidStateStoreException error = new InvalidStateStoreException(
                "Cannot get state store counts because the stream thread is PARTITIONS_ASSIGNED, not RUNNING");

        InvalidStateStoreException classified = classifier.classify(error, Target.store(STORE));

        assertThat(classified).isInstanceOf(StateStoreRetryableException.class).hasCause(error)
                .hasMessageContaining("counts").hasMessageContaining("REBALANCING");
    }

    @Test
    void anErrorWhileRebalancingIsRetryableWhenTheMetadataCannotTell() {
        streams.state(KafkaStreams.State.REBALANCING);

        assertThat(classifier.classify(MAY_HAVE_MIGRATED, Target.store(STORE)))
                .isInstanceOf(StateStoreRetryableException.class);
    }

    @Test
    void mayHaveMigratedIsMigratedToTheInstanceTheMetadataNames() {
        streams.hosts(FakeStreams.OTHER, STORE, 0, 1);

        InvalidStateStoreException classified = classifier.classify(MAY_HAVE_MIGRATED, Target.store(STORE));

        assertThat(classified).isInstanceOfSatisfying(StateStoreMigratedException.class,
                migrated -> assertThat(migrated.owner()).contains(FakeStreams.OTHER));
        assertThat(classified).hasMessageContaining("127.0.0.1:7002");
    }

    @Test
    void anyErrorIsMigratedWhenTheMetadataMovedTheStoreElsewhereEvenWhileRebalancing() {
        streams.state(KafkaStreams.State.REBALANCING).hosts(FakeStreams.OTHER, STORE, 0);

        assertThat(classifier.classify(new IllegalStateException("store closed"), Target.store(STORE)))
                .isInstanceOf(StateStoreMigratedException.class);
    }

    @Test
    void mayHaveMigratedWhileRunningIsMigratedWithoutOwnerWhenThisInstanceIsNotNamed() {
        Classifier withoutSelf = new Classifier(streams, null);

        InvalidStateStoreException classified = withoutSelf.classify(MAY_HAVE_MIGRATED, Target.store(STORE));

        assertThat(classified).isInstanceOfSatisfying(StateStoreMigratedException.class,
                migrated -> assertThat(migrated.owner()).isEmpty());
    }

    @Test
    void aPartitionHostedElsewhereIsMigratedToItsOwner() {
        streams.hosts(FakeStreams.SELF, STORE, 0).hosts(FakeStreams.OTHER, STORE, 1);
        InvalidStateStorePartitionException error = new InvalidStateStorePartitionException(
                "The specified partition 1 for store counts does not exist.");

        InvalidStateStoreException classified = classifier.classify(error, Target.partition(STORE, 1, false));

        assertThat(classified).isInstanceOfSatisfying(StateStoreMigratedException.class,
                migrated -> assertThat(migrated.owner()).contains(FakeStreams.OTHER));
    }

    @Test
    void aPartitionNoInstanceHostsIsFatal() {
        streams.hosts(FakeStreams.SELF, STORE, 0).hosts(FakeStreams.OTHER, STORE, 1);
        InvalidStateStorePartitionException error = new InvalidStateStorePartitionException(
                "The specified partition 7 for store counts does not exist.");

        assertThat(classifier.classify(error, Target.partition(STORE, 7, false)))
                .isInstanceOf(StateStoreFailException.class).hasMessageContaining("partition 7 of store counts");
    }

    @ParameterizedTest
    @EnumSource(value = KafkaStreams.State.class, names = {"PENDING_SHUTDOWN", "NOT_RUNNING", "PENDING_ERROR", "ERROR"})
    void anyErrorWhileTheInstanceStopsOrFailedIsFatal(KafkaStreams.State state) {
        streams.state(state).hosts(FakeStreams.OTHER, STORE, 0, 1);
        IllegalStateException error = new IllegalStateException("KafkaStreams is not running. State is " + state + ".");

        assertThat(classifier.classify(error, Target.store(STORE)))
                .isInstanceOf(StateStoreFailException.class).hasCause(error).hasMessageContaining(state.name());
    }

    @Test
    void anyErrorBeforeStartIsRetryable() {
        streams.state(KafkaStreams.State.CREATED);

        assertThat(classifier.classify(new StreamsNotStartedException("not started"), Target.store(STORE)))
                .isInstanceOf(StateStoreRetryableException.class);
        assertThat(classifier.classify(MAY_HAVE_MIGRATED, Target.store(STORE)))
                .isInstanceOf(StateStoreRetryableException.class);
    }

    @Test
    void kafkasTypesForStoppedAndUnknownStoresAreFatalWhateverTheState() {
        assertThat(classifier.classify(new StreamsStoppedException("stopped"), Target.store(STORE)))
                .isInstanceOf(StateStoreFailException.class);
        assertThat(classifier.classify(new UnknownStateStoreException("no such store"), Target.store("nope")))
                .isInstanceOf(StateStoreFailException.class).hasMessageContaining("nope");
    }

    @Test
    void aStoreOfAnotherTypeIsFatal() {
        InvalidStateStoreException error = new InvalidStateStoreException("Cannot get state store counts because the "
                + "queryable store type [WindowStoreType] does not accept the actual store type [MeteredKeyValueStore].");

        assertThat(classifier.classify(error, Target.store(STORE))).isInstanceOf(StateStoreFailException.class);
    }

    @Test
    void anAlreadyClassifiedErrorIsKept() {
        StateStoreRetryableException retryable = new StateStoreRetryableException("wait", null);
        streams.state(KafkaStreams.State.ERROR);

        assertThat(classifier.classify(retryable, Target.store(STORE))).isSameAs(retryable);
    }

    @Test
    void aKeyWhoseMetadataIsNotAvailableIsRetryable() {
        streams.keyMetadata = KeyQueryMetadata.NOT_AVAILABLE;
        Target key = new Target(STORE, null, false, "alice", serializer());

        assertThat(classifier.classify(MAY_HAVE_MIGRATED, key)).isInstanceOf(StateStoreRetryableException.class);
    }

    @Test
    void aKeyOwnedByAnotherInstanceIsMigratedToItWithoutNamingTheKey() {
        streams.keyMetadata = new KeyQueryMetadata(FakeStreams.OTHER, Set.of(), 1);
        Target key = new Target(STORE, null, false, "alice", serializer());

        InvalidStateStoreException classified = classifier.classify(MAY_HAVE_MIGRATED, key);

        assertThat(classified).isInstanceOfSatisfying(StateStoreMigratedException.class,
                migrated -> assertThat(migrated.owner()).contains(FakeStreams.OTHER));
        assertThat(classified.getMessage()).doesNotContain("alice");
    }

    @ParameterizedTest
    @EnumSource(value = FailureReason.class, names = {"DOES_NOT_EXIST", "UNKNOWN_QUERY_TYPE"})
    void iqv2FailuresThatNoRetryCanFixAreFatal(FailureReason reason) {
        assertThat(classifier.classify(reason, "no", Target.partition(STORE, 0, false)))
                .isInstanceOf(StateStoreFailException.class).hasMessageContaining(reason.name());
    }

    @Test
    void iqv2NotUpToBoundIsRetryableWhileRunning() {
        assertThat(classifier.classify(FailureReason.NOT_UP_TO_BOUND, "behind", Target.partition(STORE, 0, true)))
                .isInstanceOf(StateStoreRetryableException.class);
    }

    @ParameterizedTest
    @EnumSource(value = FailureReason.class, names = {"NOT_ACTIVE", "NOT_PRESENT"})
    void iqv2PartitionNotServedHereIsMigratedToTheActiveHostOrRetryableWhenItIsThisOne(FailureReason reason) {
        streams.hosts(FakeStreams.SELF, STORE, 0).hosts(FakeStreams.OTHER, STORE, 1);

        assertThat(classifier.classify(reason, "not here", Target.partition(STORE, 1, false)))
                .isInstanceOf(StateStoreMigratedException.class);
        assertThat(classifier.classify(reason, "restoring", Target.partition(STORE, 0, false)))
                .isInstanceOf(StateStoreRetryableException.class);
    }

    @Test
    void iqv2StoreExceptionFollowsTheState() {
        streams.hosts(FakeStreams.SELF, STORE, 0);
        assertThat(classifier.classify(FailureReason.STORE_EXCEPTION, "closed", Target.partition(STORE, 0, false)))
                .isInstanceOf(StateStoreRetryableException.class);

        streams.state(KafkaStreams.State.PENDING_SHUTDOWN);
        assertThat(classifier.classify(FailureReason.STORE_EXCEPTION, "closed", Target.partition(STORE, 0, false)))
                .isInstanceOf(StateStoreFailException.class);
    }

    @SuppressWarnings("unchecked")
    private static Serializer<Object> serializer() {
        return (Serializer<Object>) (Object) new StringSerializer();
    }
}
