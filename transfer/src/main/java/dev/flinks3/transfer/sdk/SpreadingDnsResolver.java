package dev.flinks3.transfer.sdk;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;

/**
 * Spreads the connections of the blocking HTTP client over every address the resolver returns for a host.
 * S3's DNS answers carry several addresses (S3 user guide, "Performance design patterns": spread requests over
 * S3's addresses); the JDK's resolver returns them in one order, and Apache HttpClient connects to the first
 * address that answers, so every pooled connection would go to the same one. Here each resolution returns the
 * addresses rotated by one more place, so successive connections start at successive addresses (and still fall
 * back to the others in order when one does not answer). Thread-safe.
 */
final class SpreadingDnsResolver implements DnsResolver {

    /** Looks up every address of a host name. */
    @FunctionalInterface
    interface HostAddresses {
        /** The JDK's resolver: the system's hosts file and DNS, with the JVM's address cache. */
        HostAddresses SYSTEM = InetAddress::getAllByName;

        /**
         * @throws UnknownHostException if the name does not resolve
         */
        InetAddress[] of(String host) throws UnknownHostException;
    }

    private final HostAddresses lookup;
    private final AtomicInteger next = new AtomicInteger();

    SpreadingDnsResolver(HostAddresses lookup) {
        this.lookup = lookup;
    }

    /** Every address of {@code host}, rotated one place further than the previous call's. */
    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] addresses = lookup.of(host);
        int count = addresses.length;
        if (count < 2) {
            return addresses;
        }
        int first = Math.floorMod(next.getAndIncrement(), count);
        InetAddress[] rotated = new InetAddress[count];
        for (int i = 0; i < count; i++) {
            rotated[i] = addresses[(first + i) % count];
        }
        return rotated;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
    }
}
