#!/usr/bin/env bash
# Writes the account-specific values of a benchmark run into the kustomize settings
# (k8s/manifests/settings/settings.yaml): bucket, region, IAM role and image repository, taken
# from the shell variables that k8s/README.md sets. Sizes and job arguments stay as they are.
#
#   BUCKET=... AWS_REGION=... ROLE_ARN=... REPOSITORY=... k8s/scripts/configure.sh [settings.yaml]
set -euo pipefail

: "${BUCKET:?set BUCKET to the checkpoint bucket}"
: "${AWS_REGION:?set AWS_REGION to the cluster and bucket region}"
: "${ROLE_ARN:?set ROLE_ARN to the ARN of the IRSA role}"
: "${REPOSITORY:?set REPOSITORY to the ECR repository URI of the images}"

settings=${1:-"$(cd "$(dirname "$0")/.." && pwd)/manifests/settings/settings.yaml"}

for value in "$BUCKET" "$AWS_REGION" "$ROLE_ARN" "$REPOSITORY"; do
  if [[ ! "$value" =~ ^[A-Za-z0-9.:/_-]+$ ]]; then
    echo "configure.sh: unexpected characters in '$value'" >&2
    exit 1
  fi
done

updated=$(mktemp)
trap 'rm -f "$updated"' EXIT
sed -e "s|^bucket: .*|bucket: ${BUCKET}|" \
    -e "s|^region: .*|region: ${AWS_REGION}|" \
    -e "s|^roleArn: .*|roleArn: ${ROLE_ARN}|" \
    -e "s|^imageRepository: .*|imageRepository: ${REPOSITORY}|" \
    "$settings" > "$updated"
cat "$updated" > "$settings"
echo "configure.sh: wrote bucket, region, roleArn and imageRepository to $settings"
