#!/usr/bin/env bash
# A single-node Ceph RADOS Gateway on 127.0.0.1 for the integration tests: a second real S3 server beside the
# in-process S3Proxy. One monitor, one OSD on memstore (the data lives in the OSD's memory) and one radosgw
# with the beast frontend, all under one data folder, no systemd, no Docker, no block device.
#
#   ceph-rgw.sh start    install the Debian packages if missing, build a fresh cluster, start it, create the
#                        test user and bucket, wait until the gateway answers S3 requests, write rgw.env
#   ceph-rgw.sh stop     stop the daemons by their recorded PIDs (SIGTERM, SIGKILL after 20 s), drop rgw.env
#   ceph-rgw.sh status   exit 0 if all three daemons run
#
# Environment:
#   FLINKS3_CEPH_DIR       data folder (default /tmp/flinks3-ceph); wiped by start
#   FLINKS3_CEPH_PORT      gateway port on 127.0.0.1 (default 7480)
#   FLINKS3_CEPH_STORE_MB  memstore size in MiB (default 4096); RAM is used only for what is stored
#
# start writes $FLINKS3_CEPH_DIR/rgw.env, lines KEY=value usable both as shell variables and as a Java
# properties file: FLINKS3_CEPH_ENDPOINT, FLINKS3_CEPH_ACCESS_KEY, FLINKS3_CEPH_SECRET_KEY,
# FLINKS3_CEPH_BUCKET, FLINKS3_CEPH_REGION. The tests read these variables from the environment, or the file
# at the default location.
#
# Exit codes of start: 0 running; 3 the Ceph packages are missing and cannot be installed (the reason is
# printed; the Ceph tests then skip); anything else is a failure to start (the daemons' log tails are printed).
set -Eeuo pipefail

DIR=${FLINKS3_CEPH_DIR:-/tmp/flinks3-ceph}
PORT=${FLINKS3_CEPH_PORT:-7480}
STORE_MB=${FLINKS3_CEPH_STORE_MB:-4096}
CONF=$DIR/ceph.conf
ENV_FILE=$DIR/rgw.env
# Fixed test credentials: this gateway is reachable from 127.0.0.1 only and holds test data only.
ACCESS_KEY=flinks3-test-access
SECRET_KEY=flinks3-test-secret-0123456789abcdefghij
BUCKET=flinks3-it
PACKAGES=(ceph-mon ceph-osd radosgw ceph-common)
COMMANDS=(ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph python3)
DAEMONS=(rgw osd mon) # stop order; start order is the reverse

log() { echo "ceph-rgw: $*" >&2; }

missing_commands() {
  local missing=()
  for c in "${COMMANDS[@]}"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
  echo "${missing[*]}"
}

install_packages() {
  local missing
  missing=$(missing_commands)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    log "Ceph is not installed (missing: $missing) and installing it needs root: apt-get install ${PACKAGES[*]}"
    return 3
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    log "Ceph is not installed (missing: $missing) and this machine has no apt-get to install ${PACKAGES[*]}"
    return 3
  fi
  log "installing ${PACKAGES[*]} (missing: $missing)"
  if ! apt-get update -qq || ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}" >/dev/null; then
    log "apt-get could not install ${PACKAGES[*]}"
    return 3
  fi
  missing=$(missing_commands)
  if [ -n "$missing" ]; then
    log "after installing ${PACKAGES[*]} these commands are still missing: $missing"
    return 3
  fi
}

pid_of() { cat "$DIR/pids/$1.pid" 2>/dev/null || true; }

alive() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# Runs a daemon in the foreground of its own session, output to its log, and records its PID.
launch() {
  local name=$1
  shift
  setsid "$@" </dev/null >"$DIR/log/$name.out" 2>&1 &
  echo $! >"$DIR/pids/$name.pid"
}

# Waits up to $2 seconds for the command after it to succeed; fails early if daemon $1 died.
wait_for() {
  local daemon=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if ! alive "$daemon"; then
      log "$daemon exited while starting"
      return 1
    fi
    if [ $SECONDS -ge $deadline ]; then
      log "$daemon not ready after ${seconds}s"
      return 1
    fi
    sleep 0.5
  done
}

ceph_cli() { timeout 20 ceph -c "$CONF" --connect-timeout 15 "$@"; }

write_conf() {
  local fsid=$1
  cat >"$CONF" <<EOF
[global]
fsid = $fsid
mon initial members = a
mon host = v2:127.0.0.1:3300,v1:127.0.0.1:6789
# Test cluster on loopback: no cephx. radosgw asks for secure messenger connections by default, which
# need cephx, so every messenger mode is crc.
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms client mode = crc
ms mon cluster mode = crc
ms cluster mode = crc
ms mon service mode = crc
ms service mode = crc
ms bind ipv4 = true
ms bind ipv6 = false
ms bind port min = 6800
ms bind port max = 6807
public network = 127.0.0.0/8
# One OSD: pools of one replica, few placement groups, no autoscaler (there is no mgr).
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = $((STORE_MB * 1024 * 1024))
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
mon data = $DIR/mon/\$cluster-\$id
osd data = $DIR/osd/\$cluster-\$id

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw thread pool size = 32
rgw data = $DIR/rgw
# Deleted objects' data (and the parts of aborted multipart uploads) is freed by the gateway's garbage
# collection, by default 2 hours after the delete and once an hour. Long runs that write and delete
# checkpoints (soaks) would fill the memstore before then, and a full OSD makes writes wait instead of
# failing, so the garbage is collected a minute after its delete, every minute.
rgw gc obj min wait = 60
rgw gc processor period = 60
rgw gc processor max time = 60
EOF
}

# Creates the bucket with a SigV4-signed PUT (python3 comes with ceph-common), retrying while the gateway
# starts; succeeds once the gateway answered S3 with 200 (created) or 409 (already ours).
create_bucket() {
  python3 - "$PORT" "$ACCESS_KEY" "$SECRET_KEY" "$BUCKET" <<'EOF'
import datetime, hashlib, hmac, http.client, sys
port, access, secret, bucket = sys.argv[1:]
now = datetime.datetime.now(datetime.timezone.utc)
amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
host = "127.0.0.1:" + port
payload = hashlib.sha256(b"").hexdigest()
canonical = "\n".join(["PUT", "/" + bucket, "", "host:" + host, "x-amz-content-sha256:" + payload,
                       "x-amz-date:" + amz_date, "", "host;x-amz-content-sha256;x-amz-date", payload])
scope = day + "/us-east-1/s3/aws4_request"
to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
key = ("AWS4" + secret).encode()
for part in (day, "us-east-1", "s3", "aws4_request"):
    key = hmac.new(key, part.encode(), hashlib.sha256).digest()
signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=5)
connection.request("PUT", "/" + bucket, headers={
    "x-amz-date": amz_date, "x-amz-content-sha256": payload,
    "Authorization": "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
                     "Signature=%s" % (access, scope, signature)})
status = connection.getresponse().status
sys.exit(0 if status in (200, 409) else 1)
EOF
}

print_logs() {
  for name in mon osd rgw; do
    for f in "$DIR/log/$name.out" "$DIR"/log/*."$name"*.log; do
      [ -s "$f" ] || continue
      log "--- last lines of $f"
      tail -n 20 "$f" >&2
    done
  done
}

start() {
  if alive mon || alive osd || alive rgw; then
    if alive mon && alive osd && alive rgw && [ -f "$ENV_FILE" ]; then
      log "already running: $(grep ENDPOINT "$ENV_FILE")"
      return 0
    fi
    log "a previous cluster is partly running; stopping it first"
    stop
  fi
  local status=0
  install_packages || status=$?
  [ $status = 0 ] || return $status

  local began=$SECONDS fsid osd_uuid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  rm -rf "$DIR"
  mkdir -p "$DIR"/{pids,log,run,mon/ceph-a,osd/ceph-0,rgw}
  write_conf "$fsid"
  trap 'log "start failed"; print_logs; stop; exit 1' ERR

  monmaptool --create --addv a "[v2:127.0.0.1:3300,v1:127.0.0.1:6789]" --fsid "$fsid" "$DIR/monmap" >/dev/null
  ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" >/dev/null
  launch mon ceph-mon -c "$CONF" -i a -f
  wait_for mon 30 ceph_cli mon stat

  local id
  id=$(ceph_cli osd new "$osd_uuid")
  ceph-osd -c "$CONF" -i "$id" --mkfs --osd-uuid "$osd_uuid" >/dev/null 2>&1
  launch osd ceph-osd -c "$CONF" -i "$id" -f
  wait_for osd 30 bash -c "timeout 20 ceph -c '$CONF' --connect-timeout 15 osd stat | grep -q '1 up'"

  launch rgw radosgw -c "$CONF" -n client.rgw.a -f
  timeout 30 radosgw-admin -c "$CONF" user create --uid=flinks3 --display-name=flinks3 \
    --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null
  wait_for rgw 60 create_bucket
  trap - ERR

  cat >"$ENV_FILE" <<EOF
FLINKS3_CEPH_ENDPOINT=http://127.0.0.1:$PORT
FLINKS3_CEPH_ACCESS_KEY=$ACCESS_KEY
FLINKS3_CEPH_SECRET_KEY=$SECRET_KEY
FLINKS3_CEPH_BUCKET=$BUCKET
FLINKS3_CEPH_REGION=us-east-1
EOF
  log "Ceph RGW $(radosgw --version | awk '{print $3}') answers on http://127.0.0.1:$PORT, bucket $BUCKET" \
    "(started in $((SECONDS - began)) s); settings in $ENV_FILE"
}

stop() {
  rm -f "$ENV_FILE"
  local name pid
  for name in "${DAEMONS[@]}"; do
    pid=$(pid_of "$name")
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true
  done
  local deadline=$((SECONDS + 20))
  for name in "${DAEMONS[@]}"; do
    pid=$(pid_of "$name")
    [ -n "$pid" ] || continue
    while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name (pid $pid) still running after SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/pids/$name.pid"
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) alive mon && alive osd && alive rgw ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
