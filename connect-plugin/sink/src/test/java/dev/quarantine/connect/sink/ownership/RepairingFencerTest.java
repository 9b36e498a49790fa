package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;

/** A claimant's fence describes the fenced ids' last transactions before and repairs what they left hanging after. */
class RepairingFencerTest {

    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final Set<String> HELD = Set.of("sink:task#1.0");

    private final List<String> calls = new ArrayList<>();
    private final List<Fencer.Fence> fences = new ArrayList<>();
    private RuntimeException describeFails;

    private final HangingTransactionCheck hanging = new HangingTransactionCheck() {
        @Override
        public boolean lastTransactionAborted(String transactionalId) {
            throw new AssertionError("described together");
        }

        @Override
        public LastTransactions describeLastTransactions(Collection<String> transactionalIds) {
            calls.add("describe " + new TreeSet<>(transactionalIds));
            if (describeFails != null) {
                return new LastTransactions(Set.of(), Map.of(transactionalIds.iterator().next(), describeFails));
            }
            return new LastTransactions(Set.copyOf(transactionalIds), Map.of());
        }

        @Override
        public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
            calls.add("abort " + transactionalId + " on " + new TreeSet<>(topics));
        }

        @Override
        public void forget(String transactionalId) {
            calls.add("forget " + transactionalId);
        }
    };

    private final RepairingFencer fencer = new RepairingFencer((ids, bound) -> {
        calls.add("fence " + new TreeSet<>(ids));
        return fences.remove(0);
    }, hanging, () -> List.of("copy.orders", "dlq", "progress"));

    @Test
    void describesTheHeldIdsBeforeTheFenceAndRepairsWhatTheyLeftHangingAfter() {
        fences.add(new Fencer.Fence.Done(Map.of()));

        assertThat(fencer.fence(HELD, BOUND)).isInstanceOf(Fencer.Fence.Done.class);
        assertThat(calls).containsExactly("describe [sink:task#1.0]", "fence [sink:task#1.0]",
                "abort sink:task#1.0 on [copy.orders, dlq, progress]", "forget sink:task#1.0");
    }

    @Test
    void doesNotDescribeAgainAfterAFenceThatFailedForNow() {
        fences.add(new Fencer.Fence.Transient(new RetriableException("timed out")));
        fences.add(new Fencer.Fence.Done(Map.of()));

        assertThat(fencer.fence(HELD, BOUND)).isInstanceOf(Fencer.Fence.Transient.class);
        assertThat(fencer.fence(HELD, BOUND)).isInstanceOf(Fencer.Fence.Done.class);

        assertThat(calls).as("a second description would name the first fence, not the holder's last transaction")
                .containsExactly("describe [sink:task#1.0]", "fence [sink:task#1.0]", "fence [sink:task#1.0]",
                        "abort sink:task#1.0 on [copy.orders, dlq, progress]", "forget sink:task#1.0");
    }

    @Test
    void doesNotFenceWhenTheDescriptionFailsForNow() {
        describeFails = new RetriableException("no answer");

        assertThat(fencer.fence(HELD, BOUND)).isInstanceOf(Fencer.Fence.Transient.class);
        assertThat(calls).containsExactly("describe [sink:task#1.0]");
    }
}
