# Where a bucket's keys, region and endpoint come from: as MySQL Shell finds them for util.loadDump
# (mysqlshdk/libs/aws/s3_bucket_config.cc):
#   profile     s3Profile, else $AWS_PROFILE, $AWS_DEFAULT_PROFILE, else "default"
#   files       s3CredentialsFile / s3ConfigFile, else $AWS_SHARED_CREDENTIALS_FILE / $AWS_CONFIG_FILE,
#               else ~/.aws/credentials / ~/.aws/config (config sections "[profile NAME]" or "[default]")
#   keys        $AWS_ACCESS_KEY_ID / $AWS_SECRET_ACCESS_KEY / $AWS_SESSION_TOKEN (not when s3Profile is
#               given), else the credentials file's profile, else the config file's profile
#   region      s3Region, else $AWS_REGION, $AWS_DEFAULT_REGION, else the config file's profile, else us-east-1
#   endpoint    s3EndpointOverride (path-style requests), else https://<bucket>.s3.<region>.amazonaws.com
import json as _json
import os as _os
import shlex as _shlex
import subprocess as _subprocess

from .errors import Refusal, why


def refused(reason, path=None):
    # A bucket's refusal or failure (keys, endpoint, a request the bucket denied): code "bucket".
    return Refusal("bucket", path, reason)


def reason_of(err):
    return why(err) or type(err).__name__


def _env(name):
    value = _os.environ.get(name)
    return value if value else None


def _read_profiles(path, config_file):
    # {profile: {key: value}} of an AWS config or credentials file; None when it cannot be read.
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    profiles, current = {}, None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            end = line.find("]")
            if end < 0:
                raise refused("%s, line %d: a section name without its closing ]" % (path, number))
            section = line[1:end].strip()
            if config_file and section != "default":
                if not section.startswith("profile "):
                    current = {}  # another kind of section (sso-session, services): ignored
                    continue
                section = section[len("profile "):].strip()
            current = profiles.setdefault(section, {})
        elif current is not None and "=" in line:
            key, value = line.split("=", 1)
            current[key.strip()] = value.strip()
        elif current is None:
            raise refused("%s, line %d: a setting outside any [profile] section" % (path, number))
    return profiles


def _process_keys(command, profile):
    # credential_process: a program that prints {"Version": 1, "AccessKeyId", "SecretAccessKey",
    # "SessionToken"} (the AWS CLI's convention, which MySQL Shell follows).
    try:
        out = _subprocess.run(_shlex.split(command), stdin=_subprocess.DEVNULL, stdout=_subprocess.PIPE,
                              stderr=_subprocess.PIPE, timeout=60)
    except (OSError, _subprocess.TimeoutExpired) as err:
        raise refused("The credential_process of profile %s could not run (%s)." % (profile, reason_of(err)))
    try:
        doc = _json.loads(out.stdout.decode("utf-8", "replace"))
        if out.returncode != 0 or not doc.get("AccessKeyId") or not doc.get("SecretAccessKey"):
            raise ValueError()
    except ValueError:
        raise refused("The credential_process of profile %s failed (exit %d) or printed no AccessKeyId and "
                      "SecretAccessKey." % (profile, out.returncode))
    return doc["AccessKeyId"], doc["SecretAccessKey"], doc.get("SessionToken"), "credential_process of profile %s" % profile


def resolve(options):
    # options: util.loadDump's s3* options ({s3BucketName, s3Region, ...}); returns the settings used.
    bucket = options.get("s3BucketName") or ""
    explicit_profile = bool(options.get("s3Profile"))
    profile = options.get("s3Profile") or _env("AWS_PROFILE") or _env("AWS_DEFAULT_PROFILE") or "default"
    home = _os.path.expanduser("~")
    cred_file = options.get("s3CredentialsFile") or _env("AWS_SHARED_CREDENTIALS_FILE") or _os.path.join(home, ".aws", "credentials")
    conf_file = options.get("s3ConfigFile") or _env("AWS_CONFIG_FILE") or _os.path.join(home, ".aws", "config")
    from_cred = (_read_profiles(cred_file, False) or {}).get(profile)
    from_conf = (_read_profiles(conf_file, True) or {}).get(profile)
    region = (options.get("s3Region") or _env("AWS_REGION") or _env("AWS_DEFAULT_REGION")
              or (from_conf or {}).get("region") or "us-east-1")
    keys, looked = None, []
    if not explicit_profile:
        looked.append("the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
        if _env("AWS_ACCESS_KEY_ID") and _env("AWS_SECRET_ACCESS_KEY"):
            keys = (_env("AWS_ACCESS_KEY_ID"), _env("AWS_SECRET_ACCESS_KEY"), _env("AWS_SESSION_TOKEN"), "environment")
    for where, found in (("credentials file %s" % cred_file, from_cred), ("credential_process", from_conf),
                         ("config file %s" % conf_file, from_conf)):
        if keys:
            break
        if where == "credential_process":
            if found and found.get("credential_process"):
                looked.append("the config file's credential_process (profile %s)" % profile)
                keys = _process_keys(found["credential_process"], profile)
            continue
        looked.append("%s (profile %s)" % (where, profile))
        if found and found.get("aws_access_key_id") and found.get("aws_secret_access_key"):
            keys = (found["aws_access_key_id"], found["aws_secret_access_key"], found.get("aws_session_token"),
                    "%s, profile %s" % (where, profile))
    if keys is None:
        raise refused("No AWS access and secret keys were found for bucket %s: looked in %s. Set "
                      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give s3Profile / s3CredentialsFile."
                      % (bucket, ", ".join(looked)))
    endpoint = (options.get("s3EndpointOverride") or "").rstrip("/")
    if endpoint:
        if "://" not in endpoint:
            endpoint = "https://" + endpoint
        path_style = True
    else:
        virtual = 0 < len(bucket) <= 63 and all(c.islower() or c.isdigit() or c == "-" for c in bucket) \
            and bucket[0] != "-" and bucket[-1] != "-"
        endpoint = "https://%ss3.%s.amazonaws.com" % (bucket + "." if virtual else "", region)
        path_style = not virtual
    return {"bucket": bucket, "region": region, "endpoint": endpoint, "pathStyle": path_style,
            "accessKey": keys[0], "secretKey": keys[1], "token": keys[2], "keysFrom": keys[3], "profile": profile}
