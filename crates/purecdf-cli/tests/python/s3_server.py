"""An S3 server on 127.0.0.1 for purecdf's tests: moto's, with SigV4 checked.

Starts moto's server on a free loopback port with authentication on (after the few requests
that create the test user), creates a user with full S3 access and a bucket, prints one JSON
line {"endpoint", "access_key_id", "secret_access_key", "bucket"} and serves until its standard
input closes.

    s3_server.py            serve
    s3_server.py list ENDPOINT KEY SECRET BUCKET PREFIX
                            print "key<TAB>sha256" for every object below PREFIX (boto3's view)
"""
import hashlib
import json
import os
import socket
import sys


def client(endpoint, key, secret, service="s3"):
    import boto3

    return boto3.client(
        service,
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=key,
        aws_secret_access_key=secret,
    )


def serve():
    # moto reads this when imported: every request after the first three is authenticated.
    os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
    from moto.server import ThreadedMotoServer

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    iam = client(endpoint, "setup", "setup", "iam")
    iam.create_user(UserName="purecdf")
    policy = {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
    }
    iam.put_user_policy(UserName="purecdf", PolicyName="s3", PolicyDocument=json.dumps(policy))
    key = iam.create_access_key(UserName="purecdf")["AccessKey"]
    bucket = "purecdf-test"
    client(endpoint, key["AccessKeyId"], key["SecretAccessKey"]).create_bucket(Bucket=bucket)
    print(
        json.dumps(
            {
                "endpoint": endpoint,
                "access_key_id": key["AccessKeyId"],
                "secret_access_key": key["SecretAccessKey"],
                "bucket": bucket,
            }
        ),
        flush=True,
    )
    sys.stdin.read()
    server.stop()


def list_objects(endpoint, key, secret, bucket, prefix):
    s3 = client(endpoint, key, secret)
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    for page in pages:
        for obj in page.get("Contents", []):
            body = s3.get_object(Bucket=bucket, Key=obj["Key"])["Body"].read()
            print(f"{obj['Key']}\t{hashlib.sha256(body).hexdigest()}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "list":
        list_objects(*sys.argv[2:7])
    else:
        serve()
