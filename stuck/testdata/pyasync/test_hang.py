import asyncio
import time


async def wait_for_reply(reply):
    return await reply  # nobody sets it


async def handshake():
    reply = asyncio.get_running_loop().create_future()
    return await wait_for_reply(reply)


def test_awaits_forever():
    asyncio.run(handshake())


def test_sleeps_past_the_timeout():
    time.sleep(3600)
