package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;

import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.ConcurrentTransactionsException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

/** {@link AdminFencer#failed}, one row per line of its table. */
class AdminFencerTest {

    @Test
    void anAclOnTheTransactionalIdsIsARefusalForGood() {
        Fencer.Fence fence = AdminFencer.failed(new ExecutionException(
                new TransactionalIdAuthorizationException("no Write on copy:task#0.0")));

        assertThat(fence).isInstanceOf(Fencer.Fence.Refused.class);
        assertThat(((Fencer.Fence.Refused) fence).cause()).isInstanceOf(TransactionalIdAuthorizationException.class);
    }

    @Test
    void otherAuthorizationAuthenticationAndAMissingApiAreRefusals() {
        assertThat(AdminFencer.failed(new ClusterAuthorizationException("x"))).isInstanceOf(Fencer.Fence.Refused.class);
        assertThat(AdminFencer.failed(new SaslAuthenticationException("x"))).isInstanceOf(Fencer.Fence.Refused.class);
        assertThat(AdminFencer.failed(new UnsupportedVersionException("x")))
                .isInstanceOf(Fencer.Fence.Refused.class);
    }

    @Test
    void aTimeoutOrAnythingElseIsTransientMaybeApplied() {
        assertThat(AdminFencer.failed(new ExecutionException(new TimeoutException("x"))))
                .isInstanceOf(Fencer.Fence.Transient.class);
        assertThat(AdminFencer.failed(new java.util.concurrent.TimeoutException("x")))
                .isInstanceOf(Fencer.Fence.Transient.class);
        assertThat(AdminFencer.failed(new ConcurrentTransactionsException("x")))
                .isInstanceOf(Fencer.Fence.Transient.class);
        assertThat(AdminFencer.failed(new InterruptedException())).isInstanceOf(Fencer.Fence.Transient.class);
    }
}
