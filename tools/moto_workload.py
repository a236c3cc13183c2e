"""moto's own SNS workload, for tools/moto-compare.sh: in one process, with moto's in-process
SNS (`@mock_aws`), create one platform application per platform, N platform endpoints (one per
device token, the platforms taken in turn, as PushSim's benchmarks take their devices') and
publish one message to each endpoint, timing the whole. Standard library plus moto and boto3.

Usage: python tools/moto_workload.py [--endpoints N] [--platforms ios,android,windows]
(SNS's names for them: APNS, GCM, WNS).
Prints a human line and a `RESULT endpoints=N seconds=S setup_s=… publish_s=…` line for scripts.
"""
import argparse
import os
import time

# Fixed fake credentials and region, so botocore never looks for real ones.
os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_SESSION_TOKEN", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402


@mock_aws
def workload(endpoints: int, platforms: list):
    """Returns (setup seconds, publish seconds, messages published)."""
    start = time.perf_counter()
    sns = boto3.client("sns", region_name="us-east-1")
    apps = [sns.create_platform_application(
        Name="notifyusers-" + platform.lower(), Platform=platform, Attributes={"PlatformCredential": "server-key-stand-in"}
    )["PlatformApplicationArn"] for platform in platforms]
    arns = []
    for i in range(endpoints):
        arns.append(sns.create_platform_endpoint(
            PlatformApplicationArn=apps[i % len(apps)], Token="token-%064d" % i, CustomUserData="username:u%d" % i
        )["EndpointArn"])
    setup = time.perf_counter() - start
    start = time.perf_counter()
    published = 0
    for i, arn in enumerate(arns):
        to = (i + 1) % endpoints
        sns.publish(TargetArn=arn, Message="From u%d: hello u%d" % ((i + endpoints - 1) % endpoints, to))
        published += 1
    publish = time.perf_counter() - start
    # Every endpoint exists and was published to once.
    assert len(set(arns)) == endpoints and published == endpoints
    return setup, publish, published


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--endpoints", type=int, default=10000)
    parser.add_argument("--platforms", default="ios,android,windows")
    args = parser.parse_args()
    names = {"ios": "APNS", "android": "GCM", "windows": "WNS"}
    platforms = [names[p] for p in args.platforms.split(",")]
    setup, publish, published = workload(args.endpoints, platforms)
    total = setup + publish
    n = args.endpoints
    print("moto %s in-process SNS: %d %s endpoints created in %.2f s (%.1f µs each), %d publishes in %.2f s (%.1f µs each); "
          "%.2f s in all, %.1f µs per endpoint" % (
              __import__("moto").__version__, n, "/".join(platforms), setup, setup * 1e6 / n, published, publish,
              publish * 1e6 / n, total, total * 1e6 / n))
    print("RESULT endpoints=%d seconds=%.6f setup_s=%.6f publish_s=%.6f" % (n, total, setup, publish))


if __name__ == "__main__":
    main()
