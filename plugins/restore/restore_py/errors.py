# The one shape in which the companion says that something was refused or failed. Every function JS
# calls answers [value, None] or [None, failure] (registration.py): failure is a dictionary
# {code, path, errno, reason, message}, never a traceback to be read. ../restore_js/host.js turns it
# into a FileError (lib/core/file-error.js) carrying the same fields.
import os as _os


class Refusal(Exception):
    # code: what happened, for code to test (e.g. "exists"; each declared in lib/core/error-codes.js
    # FILE_CODES); path: what it concerns (None: no one path); reason: the sentence about it;
    # errno: the OS error number when the OS refused; note: what the batch did before it, added to
    # the message.
    def __init__(self, code, path, reason, errno=None, note=None):
        Exception.__init__(self, reason)
        self.code, self.path, self.reason, self.errno = code, path, reason, errno
        self.message = reason if path is None else "%s: %s" % (path, reason)
        if note:
            self.message += "; " + note


def why(err):
    # The OS's own words for an OSError ("Permission denied"), without "[Errno 13]" and the path.
    return err.strerror or str(err)


def os_refusal(code, path, what, err, note=None):
    # An OSError as a Refusal: "<what> (<the OS's words>)", with its errno.
    return Refusal(code, path, "%s (%s)" % (what, why(err)), err.errno, note)


def failure(err):
    # Any exception as the dictionary that crosses to JS. An OSError the companion did not expect
    # keeps its errno and path; anything else is a defect of the companion, said with where it arose.
    if not isinstance(err, Refusal):
        if isinstance(err, OSError):
            err = Refusal("os-error", err.filename, why(err), err.errno)
        else:
            import traceback as _traceback  # only for a defect: not at every mysqlsh start
            frames = _traceback.extract_tb(err.__traceback__)
            where = " (%s, line %d)" % (_os.path.basename(frames[-1].filename), frames[-1].lineno) if frames else ""
            err = Refusal("internal", None, "%s: %s%s" % (type(err).__name__, err, where))
    return {"code": err.code, "path": err.path, "errno": err.errno, "reason": err.reason, "message": err.message}
