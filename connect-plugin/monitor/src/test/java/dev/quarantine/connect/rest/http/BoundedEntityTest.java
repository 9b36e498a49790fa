package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.junit.jupiter.api.Test;

import jakarta.ws.rs.WebApplicationException;

class BoundedEntityTest {

    @Test
    void readsABodyUpToTheLimitWhole() throws IOException {
        try (InputStream body = new BoundedEntity(new ByteArrayInputStream(new byte[100]), 100)) {
            assertThat(body.readAllBytes()).hasSize(100);
        }
    }

    @Test
    void failsWith413OneBytePastTheLimitHavingReadNoMore() {
        Endless endless = new Endless();

        assertThatThrownBy(() -> new BoundedEntity(endless, 1_000).readAllBytes())
                .isInstanceOfSatisfying(WebApplicationException.class, e -> {
                    assertThat(e.getResponse().getStatus()).isEqualTo(413);
                    assertThat(e.getResponse().getEntity().toString()).isNotEmpty();
                });
        assertThat(endless.served).isEqualTo(1_001);
    }

    @Test
    void readsNothingWhenAskedForNothing() throws IOException {
        Endless endless = new Endless();

        assertThat(new BoundedEntity(endless, 10).read(new byte[0], 0, 0)).isZero();
        assertThat(endless.served).isZero();
    }

    @Test
    void countsSingleByteReadsToo() throws IOException {
        InputStream body = new BoundedEntity(new Endless(), 3);
        for (int i = 0; i < 3; i++) {
            assertThat(body.read()).isZero();
        }
        assertThatThrownBy(body::read).isInstanceOf(WebApplicationException.class);
    }

    /** A body that never ends, counting what was taken from it. */
    private static final class Endless extends InputStream {
        long served;

        @Override
        public int read() {
            served++;
            return 0;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            served += length;
            return length;
        }
    }
}
