package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestSummaryTest {

    private static final RequestSummary EARLIER = new RequestSummary(Map.of(
            RequestKind.PUT_OBJECT, new RequestTotals(5, 1_000, 0),
            RequestKind.HEAD_OBJECT, new RequestTotals(2, 300, 0)));
    private static final RequestSummary LATER = new RequestSummary(Map.of(
            RequestKind.PUT_OBJECT, new RequestTotals(8, 4_000, 120),
            RequestKind.HEAD_OBJECT, new RequestTotals(2, 300, 0),
            RequestKind.GET_OBJECT, new RequestTotals(1, 25_000_000, 4096)));

    @Test
    void rendersOneLinePerOperationInNameOrderAndTheTotal() {
        assertThat(LATER.render()).isEqualTo("""
                GetObject 1 25000000 4096
                HeadObject 2 300 0
                PutObject 8 4000 120
                Total 11
                """);
    }

    @Test
    void parseReadsWhatRenderWrote() {
        assertThat(RequestSummary.parse(LATER.render())).isEqualTo(LATER);
        assertThat(RequestSummary.parse(RequestSummary.NONE.render())).isEqualTo(RequestSummary.NONE);
    }

    @Test
    void differencesLeaveOutOperationsWhereNothingHappened() {
        RequestSummary delta = LATER.minus(EARLIER);

        assertThat(delta.byKind()).containsOnlyKeys(RequestKind.PUT_OBJECT, RequestKind.GET_OBJECT);
        assertThat(delta.of(RequestKind.PUT_OBJECT)).isEqualTo(new RequestTotals(3, 3_000, 120));
        assertThat(delta.of(RequestKind.HEAD_OBJECT)).isEqualTo(RequestTotals.NONE);
        assertThat(delta.total()).isEqualTo(new RequestTotals(4, 25_003_000, 4216));
    }

    @Test
    void otherTextIsRejectedNamingTheLine() {
        assertThatThrownBy(() -> RequestSummary.parse("GetObject 1 25\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'GetObject 1 25'");
        assertThatThrownBy(() -> RequestSummary.parse("Fetch 1 2 3\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Fetch'");
        assertThatThrownBy(() -> RequestSummary.parse("GetObject 1 two 3\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'GetObject 1 two 3'");
    }
}
